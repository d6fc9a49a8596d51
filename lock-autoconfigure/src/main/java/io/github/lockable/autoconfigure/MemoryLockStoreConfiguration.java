package io.github.lockable.autoconfigure;

import io.github.lockable.store.LockStore;
import io.github.lockable.store.memory.MemoryLockStore;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The in-memory store: one JVM.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "lockable.store", havingValue = "memory")
class MemoryLockStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockStore.class)
	MemoryLockStore memoryLockStore() {
		return new MemoryLockStore();
	}

}
