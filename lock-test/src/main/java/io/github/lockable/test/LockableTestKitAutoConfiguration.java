package io.github.lockable.test;

import io.github.lockable.core.LockableCore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@link LockableTestKit} in every context that has Lockable and {@code lockable-test}
 * on the class path. Its recorder is a bean apart from the kit, since the lock manager
 * tells it every event and the kit needs the lock manager.
 */
@AutoConfiguration(afterName = "io.github.lockable.autoconfigure.LockableAutoConfiguration")
@ConditionalOnBean(LockableCore.class)
class LockableTestKitAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockEventRecorder lockEventRecorder() {
		return new LockEventRecorder();
	}

	@Bean
	@ConditionalOnMissingBean(LockableTestKit.class)
	DefaultLockableTestKit lockableTestKit(LockableCore core, LockEventRecorder recorder) {
		return new DefaultLockableTestKit(core, recorder);
	}

}
