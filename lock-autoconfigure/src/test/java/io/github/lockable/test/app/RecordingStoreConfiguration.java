package io.github.lockable.test.app;

import javax.sql.DataSource;

import io.github.lockable.autoconfigure.LockableProperties;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.jdbc.JdbcLockStore;
import io.github.lockable.store.jdbc.JdbcLockStoreSchema;
import io.github.lockable.store.redis.RedisLockStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What the test applications share: the store, recording every call, and the gate that
 * holds a locked method until the test opens it. The store is Redis, or with
 * {@code lockable.store=jdbc} the JDBC store on the application's {@link DataSource}, its
 * table created as the auto-configuration would.
 */
@Configuration(proxyBeanMethods = false)
public class RecordingStoreConfiguration {

	@Bean
	Gate gate() {
		return new Gate();
	}

	@Bean
	RecordingLockStore recordingLockStore(ObjectProvider<LettuceConnectionFactory> connectionFactory,
			ObjectProvider<DataSource> dataSource, LockableProperties properties) {
		return new RecordingLockStore((properties.getStore() == LockableProperties.Store.JDBC)
				? jdbcStore(dataSource.getObject(), properties) : new RedisLockStore(connectionFactory.getObject(),
						properties.getAcquireTimeout(), properties.getRedis().getReplicasToAck()));
	}

	private static LockStore jdbcStore(DataSource dataSource, LockableProperties properties) {
		LockableProperties.Jdbc jdbc = properties.getJdbc();
		if (jdbc.getInitializeSchema() == LockableProperties.InitializeSchema.ALWAYS) {
			JdbcLockStoreSchema.create(dataSource, jdbc.getTableName());
		}
		return new JdbcLockStore(dataSource, jdbc.getTableName(), properties.getAcquireTimeout());
	}

}
