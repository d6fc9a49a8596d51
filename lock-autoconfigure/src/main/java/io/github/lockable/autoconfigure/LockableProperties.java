package io.github.lockable.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockableConfigurationException;
import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.core.LockableCore;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.Ordered;

/**
 * Configuration of Lockable, under {@code lockable.*}. The Redis connection itself comes
 * from {@code spring.data.redis.*}.
 */
@ConfigurationProperties("lockable")
public class LockableProperties implements InitializingBean {

	/** What the JDBC store takes for a table name, as it goes into its SQL. */
	private static final Pattern TABLE_NAME = Pattern
		.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

	/**
	 * Whether to run @Lockable methods under a lock. When disabled they run unlocked.
	 */
	private boolean enabled = true;

	/**
	 * Where locks live: redis (scales out), file (one host, several processes), memory
	 * (one JVM) or jdbc (the application's database).
	 */
	private Store store = Store.REDIS;

	/**
	 * Namespace before every lock key, such as the application and environment. Characters
	 * A-Z a-z 0-9 : . _ - only.
	 */
	private String keyPrefix = "lock";

	/**
	 * Longest key part a resolver may return, in characters. Longer keys are refused with
	 * HTTP 400 before the store is asked.
	 */
	private int maxKeyLength = 200;

	/**
	 * TTL of a lock whose annotation leaves it empty.
	 */
	private Duration defaultTtl = Duration.ofSeconds(30);

	/**
	 * Conflict policy of a lock whose annotation leaves it at DEFAULT.
	 */
	private ConflictPolicy defaultConflictPolicy = ConflictPolicy.CONFLICT;

	/**
	 * Share of its TTL after which a holder is reported with a warning when it releases.
	 */
	private double ttlWarningRatio = 0.8;

	/**
	 * What a locked method does when the store does not answer: fail (HTTP 503, the method
	 * does not run) or proceed (the method runs unlocked; logged at ERROR either way).
	 */
	private StoreFailurePolicy storeFailure = StoreFailurePolicy.FAIL;

	/**
	 * Longest a whole acquire may take, opening the first connection to the store included,
	 * before it counts as a store failure. Every caller waits at most this long, even when
	 * the store accepts connections and never answers.
	 */
	private Duration acquireTimeout = Duration.ofSeconds(2);

	/**
	 * Order of the lock advice. The default puts it just outside a @Transactional advice at
	 * Spring's default order, so the lock is taken before the transaction begins and
	 * released after it ends; set it lower if you moved the transaction advice.
	 */
	private int order = Ordered.LOWEST_PRECEDENCE - 1;

	/**
	 * Whether a transaction that began inside a locked call is rolled back, with a
	 * LockLostException, when a renewal found the call's lock lost before the commit.
	 */
	private boolean rollbackOnLostLock = true;

	private final File file = new File();

	private final Redis redis = new Redis();

	private final Jdbc jdbc = new Jdbc();

	/**
	 * Returns {@code lockable.enabled}.
	 * @return the property's value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets {@code lockable.enabled}.
	 * @param enabled the property's value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Returns {@code lockable.store}.
	 * @return the property's value
	 */
	public Store getStore() {
		return this.store;
	}

	/**
	 * Sets {@code lockable.store}.
	 * @param store the property's value
	 */
	public void setStore(Store store) {
		this.store = store;
	}

	/**
	 * Returns {@code lockable.key-prefix}.
	 * @return the property's value
	 */
	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	/**
	 * Sets {@code lockable.key-prefix}.
	 * @param keyPrefix the property's value
	 */
	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	/**
	 * Returns {@code lockable.max-key-length}.
	 * @return the property's value
	 */
	public int getMaxKeyLength() {
		return this.maxKeyLength;
	}

	/**
	 * Sets {@code lockable.max-key-length}.
	 * @param maxKeyLength the property's value
	 */
	public void setMaxKeyLength(int maxKeyLength) {
		this.maxKeyLength = maxKeyLength;
	}

	/**
	 * Returns {@code lockable.default-ttl}.
	 * @return the property's value
	 */
	public Duration getDefaultTtl() {
		return this.defaultTtl;
	}

	/**
	 * Sets {@code lockable.default-ttl}.
	 * @param defaultTtl the property's value
	 */
	public void setDefaultTtl(Duration defaultTtl) {
		this.defaultTtl = defaultTtl;
	}

	/**
	 * Returns {@code lockable.default-conflict-policy}.
	 * @return the property's value
	 */
	public ConflictPolicy getDefaultConflictPolicy() {
		return this.defaultConflictPolicy;
	}

	/**
	 * Sets {@code lockable.default-conflict-policy}.
	 * @param defaultConflictPolicy the property's value
	 */
	public void setDefaultConflictPolicy(ConflictPolicy defaultConflictPolicy) {
		this.defaultConflictPolicy = defaultConflictPolicy;
	}

	/**
	 * Returns {@code lockable.ttl-warning-ratio}.
	 * @return the property's value
	 */
	public double getTtlWarningRatio() {
		return this.ttlWarningRatio;
	}

	/**
	 * Sets {@code lockable.ttl-warning-ratio}.
	 * @param ttlWarningRatio the property's value
	 */
	public void setTtlWarningRatio(double ttlWarningRatio) {
		this.ttlWarningRatio = ttlWarningRatio;
	}

	/**
	 * Returns {@code lockable.store-failure}.
	 * @return the property's value
	 */
	public StoreFailurePolicy getStoreFailure() {
		return this.storeFailure;
	}

	/**
	 * Sets {@code lockable.store-failure}.
	 * @param storeFailure the property's value
	 */
	public void setStoreFailure(StoreFailurePolicy storeFailure) {
		this.storeFailure = storeFailure;
	}

	/**
	 * Returns {@code lockable.acquire-timeout}.
	 * @return the property's value
	 */
	public Duration getAcquireTimeout() {
		return this.acquireTimeout;
	}

	/**
	 * Sets {@code lockable.acquire-timeout}.
	 * @param acquireTimeout the property's value
	 */
	public void setAcquireTimeout(Duration acquireTimeout) {
		this.acquireTimeout = acquireTimeout;
	}

	/**
	 * Returns {@code lockable.order}.
	 * @return the property's value
	 */
	public int getOrder() {
		return this.order;
	}

	/**
	 * Sets {@code lockable.order}.
	 * @param order the property's value
	 */
	public void setOrder(int order) {
		this.order = order;
	}

	/**
	 * Returns {@code lockable.rollback-on-lost-lock}.
	 * @return the property's value
	 */
	public boolean isRollbackOnLostLock() {
		return this.rollbackOnLostLock;
	}

	/**
	 * Sets {@code lockable.rollback-on-lost-lock}.
	 * @param rollbackOnLostLock the property's value
	 */
	public void setRollbackOnLostLock(boolean rollbackOnLostLock) {
		this.rollbackOnLostLock = rollbackOnLostLock;
	}

	/**
	 * Returns the {@code lockable.file.*} properties.
	 * @return the nested properties
	 */
	public File getFile() {
		return this.file;
	}

	/**
	 * Returns the {@code lockable.redis.*} properties.
	 * @return the nested properties
	 */
	public Redis getRedis() {
		return this.redis;
	}

	/**
	 * Returns the {@code lockable.jdbc.*} properties.
	 * @return the nested properties
	 */
	public Jdbc getJdbc() {
		return this.jdbc;
	}

	/**
	 * Checks every property once bound, so that a bad value fails startup even when the
	 * application defines its own Lockable beans.
	 * @throws LockableConfigurationException listing every property that cannot work
	 */
	@Override
	public void afterPropertiesSet() {
		List<String> problems = problems();
		if (!problems.isEmpty()) {
			throw new LockableConfigurationException(problems, "Fix each lockable.* property listed above.");
		}
	}

	/**
	 * Every property that cannot work, one sentence each.
	 * @return the problems, empty when the configuration is valid
	 */
	List<String> problems() {
		List<String> problems = new ArrayList<>();
		String prefixProblem = LockableCore.keyPrefixProblem(this.keyPrefix);
		if (prefixProblem != null) {
			problems.add("lockable.key-prefix " + prefixProblem);
		}
		if (this.maxKeyLength < 1) {
			problems.add("lockable.max-key-length must be at least 1, was " + this.maxKeyLength);
		}
		if (this.defaultTtl == null || this.defaultTtl.toMillis() < 1) {
			problems.add("lockable.default-ttl must be positive (at least 1ms), was " + this.defaultTtl);
		}
		if (this.defaultConflictPolicy == null || this.defaultConflictPolicy == ConflictPolicy.DEFAULT) {
			problems.add("lockable.default-conflict-policy must be conflict, locked, too-many-requests or skip, was "
					+ this.defaultConflictPolicy);
		}
		if (!(this.ttlWarningRatio > 0 && this.ttlWarningRatio <= 1)) {
			problems.add("lockable.ttl-warning-ratio must be more than 0 and at most 1, was " + this.ttlWarningRatio);
		}
		if (this.acquireTimeout == null || this.acquireTimeout.toMillis() < 1) {
			problems.add("lockable.acquire-timeout must be positive (at least 1ms), was " + this.acquireTimeout);
		}
		if (this.redis.getReplicasToAck() < 0) {
			problems.add("lockable.redis.replicas-to-ack must be at least 0, was " + this.redis.getReplicasToAck());
		}
		if (this.redis.getLockDelay() == null || this.redis.getLockDelay().isNegative()) {
			problems.add("lockable.redis.lock-delay must be 0 or more, was " + this.redis.getLockDelay());
		}
		if (this.jdbc.getTableName() == null || !TABLE_NAME.matcher(this.jdbc.getTableName()).matches()) {
			problems.add("lockable.jdbc.table-name must be a table name of letters, digits and underscores, "
					+ "optionally after a schema and a dot, was '" + this.jdbc.getTableName() + "'");
		}
		if (this.jdbc.getInitializeSchema() == null) {
			problems.add("lockable.jdbc.initialize-schema must be embedded, always or never");
		}
		if (this.store == null) {
			problems.add("lockable.store must be redis, file, memory or jdbc");
		}
		return problems;
	}

	/**
	 * Where locks live.
	 */
	public enum Store {

		/**
		 * Redis standalone, Sentinel or Cluster, through the application's
		 * RedisConnectionFactory.
		 */
		REDIS,

		/**
		 * Lock files in a directory of this host.
		 */
		FILE,

		/**
		 * In this JVM only.
		 */
		MEMORY,

		/**
		 * Rows of one table in the application's database, through its DataSource.
		 */
		JDBC

	}

	/**
	 * The Redis store.
	 */
	public static class Redis {

		/**
		 * Number of replicas that must have a lock before its acquire succeeds, waited for
		 * with Redis WAIT within the acquire timeout. If fewer acknowledge it in time, the
		 * lock is given back and the acquire fails as a store failure (code REPLICATION).
		 * Narrows, without closing, the window in which a failover to a replica forgets a
		 * lock just taken. 0 does not wait. Standalone and Sentinel only.
		 */
		private int replicasToAck = 0;

		/**
		 * How long no lock is granted once Redis may have forgotten the locks it held (a
		 * restart, a failover to a replica: the server's run_id changed), counted from the
		 * server's start or from the first acquire that sees the new server. Set it to the
		 * longest TTL in use, so that a holder that still runs is not joined by a second
		 * one; acquires meanwhile answer held (409, 423, 429 or skip). 0 turns it off.
		 * Costs every acquire a script with INFO server instead of a plain SET.
		 */
		private Duration lockDelay = Duration.ZERO;

		/**
		 * Returns {@code lockable.redis.replicas-to-ack}.
		 * @return the property's value
		 */
		public int getReplicasToAck() {
			return this.replicasToAck;
		}

		/**
		 * Sets {@code lockable.redis.replicas-to-ack}.
		 * @param replicasToAck the property's value
		 */
		public void setReplicasToAck(int replicasToAck) {
			this.replicasToAck = replicasToAck;
		}

		/**
		 * Returns {@code lockable.redis.lock-delay}.
		 * @return the property's value
		 */
		public Duration getLockDelay() {
			return this.lockDelay;
		}

		/**
		 * Sets {@code lockable.redis.lock-delay}.
		 * @param lockDelay the property's value
		 */
		public void setLockDelay(Duration lockDelay) {
			this.lockDelay = lockDelay;
		}

	}

	/**
	 * The file store.
	 */
	public static class File {

		/**
		 * Directory of the lock files, required with lockable.store=file; created if
		 * missing. Every process that shares the locks must name the same directory, on a
		 * file system they all see: not under java.io.tmpdir for a service (systemd
		 * PrivateTmp= gives each its own /tmp), and mounted into every container. Never a
		 * job's output directory. Refused if owned by another user, writable by group or
		 * others, or reached through another user's symbolic link.
		 */
		private @Nullable Path directory;

		/**
		 * The lock directory; there is no default, as no directory is shared by every way
		 * to run processes on one host.
		 * @return the directory, or {@code null} if not set
		 */
		public @Nullable Path getDirectory() {
			return this.directory;
		}

		/**
		 * Sets {@code lockable.file.directory}.
		 * @param directory the property's value
		 */
		public void setDirectory(@Nullable Path directory) {
			this.directory = directory;
		}

	}

	/**
	 * The JDBC store.
	 */
	public static class Jdbc {

		/**
		 * Table of the locks, optionally schema-qualified (letters, digits, underscores).
		 */
		private String tableName = "lockable_lock";

		/**
		 * When to create the lock table at startup from Lockable's script for the
		 * database (classpath:io/github/lockable/store/jdbc/schema-<platform>.sql): for an
		 * embedded database only, always (unless it exists), or never (Flyway, Liquibase).
		 */
		private InitializeSchema initializeSchema = InitializeSchema.EMBEDDED;

		/**
		 * Whether the start fails when, once the application's singletons exist (Flyway and
		 * Liquibase have run), the lock table is missing or lacks the columns and key of
		 * Lockable's script. Turn it off when the table is created after startup: a WARN
		 * then, and lock calls fail (NO_TABLE) until it exists.
		 */
		private boolean failOnMissingTable = true;

		/**
		 * Whether waiters on PostgreSQL are woken by other instances' releases through
		 * LISTEN/NOTIFY, on one connection taken while somebody waits. Turn it off behind a
		 * pooler that keeps no session state (PgBouncer in transaction mode): waiters then
		 * poll, as on other databases.
		 */
		private boolean listenForReleases = true;

		/**
		 * Returns {@code lockable.jdbc.table-name}.
		 * @return the property's value
		 */
		public String getTableName() {
			return this.tableName;
		}

		/**
		 * Sets {@code lockable.jdbc.table-name}.
		 * @param tableName the property's value
		 */
		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		/**
		 * Returns {@code lockable.jdbc.initialize-schema}.
		 * @return the property's value
		 */
		public InitializeSchema getInitializeSchema() {
			return this.initializeSchema;
		}

		/**
		 * Sets {@code lockable.jdbc.initialize-schema}.
		 * @param initializeSchema the property's value
		 */
		public void setInitializeSchema(InitializeSchema initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		/**
		 * Returns {@code lockable.jdbc.fail-on-missing-table}.
		 * @return the property's value
		 */
		public boolean isFailOnMissingTable() {
			return this.failOnMissingTable;
		}

		/**
		 * Sets {@code lockable.jdbc.fail-on-missing-table}.
		 * @param failOnMissingTable the property's value
		 */
		public void setFailOnMissingTable(boolean failOnMissingTable) {
			this.failOnMissingTable = failOnMissingTable;
		}

		/**
		 * Returns {@code lockable.jdbc.listen-for-releases}.
		 * @return the property's value
		 */
		public boolean isListenForReleases() {
			return this.listenForReleases;
		}

		/**
		 * Sets {@code lockable.jdbc.listen-for-releases}.
		 * @param listenForReleases the property's value
		 */
		public void setListenForReleases(boolean listenForReleases) {
			this.listenForReleases = listenForReleases;
		}

	}

	/**
	 * When the JDBC store creates its table, as Spring Batch's and Spring Session's
	 * {@code initialize-schema} say it.
	 */
	public enum InitializeSchema {

		/**
		 * For an embedded database (H2 in memory) only.
		 */
		EMBEDDED,

		/**
		 * Always, unless the table exists.
		 */
		ALWAYS,

		/**
		 * Never: the application's own migrations create it.
		 */
		NEVER

	}

}
