package io.github.lockable.autoconfigure;

import org.junit.jupiter.api.Test;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.test.BootLine;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis store copies the application factory's configuration into connections of its
 * own; a static master/replica one it cannot copy, and it must say so rather than lock on
 * the factory's unused standalone default.
 */
class RedisStaticMasterReplicaTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(AopAutoConfiguration.class, BootLine.REDIS_AUTO_CONFIGURATION, LockableAutoConfiguration.class));

	@Test
	void aStaticMasterReplicaConnectionFactoryFailsStartupSayingWhatToDo() {
		RedisStaticMasterReplicaConfiguration masterReplica = new RedisStaticMasterReplicaConfiguration("redis-a", 6380);
		masterReplica.addNode("redis-b", 6380);
		this.runner
			.withBean(LettuceConnectionFactory.class,
					() -> new LettuceConnectionFactory(masterReplica, LettuceClientConfiguration.defaultConfiguration()))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(LockableConfigurationException.class)
					.hasMessageContaining("cannot use a static master/replica RedisConnectionFactory")
					.hasMessageContaining("spring.data.redis.sentinel.*");
			});
	}

}
