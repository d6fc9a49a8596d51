package io.github.lockable.store.redis;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import io.github.lockable.store.LockStore;
import io.github.lockable.test.LockStoreContract;
import io.github.lockable.test.redis.RedisTopology;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The store contract on a Redis deployment other than one server, with the store and its
 * connection factory made by Spring Boot's auto-configuration from
 * {@code spring.data.redis.*}, as an application gets them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TopologyLockStoreTests extends LockStoreContract {

	private ConfigurableApplicationContext context;

	private RedisLockStore store;

	/**
	 * The deployment under test.
	 * @return the running deployment
	 */
	protected abstract RedisTopology topology();

	@BeforeAll
	void startStore() {
		this.context = start(topology(), Map.of("lockable.acquire-timeout", "5s"));
		this.store = this.context.getBean(RedisLockStore.class);
	}

	/**
	 * Starts an application without a web server on the deployment, with Lockable's and
	 * Spring Data Redis's auto-configuration.
	 * @param topology the deployment
	 * @param extra more properties
	 * @return the running context; the caller closes it
	 */
	static ConfigurableApplicationContext start(RedisTopology topology, Map<String, Object> extra) {
		Map<String, Object> properties = new LinkedHashMap<>(extra);
		DynamicPropertyRegistry registry = (name, value) -> properties.put(name, value.get());
		topology.registerProperties(registry);
		return new SpringApplicationBuilder(StoreApplication.class).web(WebApplicationType.NONE)
			.properties(properties)
			.run();
	}

	@AfterAll
	void stopStore() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Override
	protected LockStore createStore() {
		return this.store;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.autoconfigure.security.servlet.SecurityAutoConfiguration",
			"org.springframework.boot.autoconfigure.security.servlet.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration" })
	static class StoreApplication {

	}

}
