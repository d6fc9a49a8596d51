package io.github.lockable.store.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockStoreException;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ScriptException;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.util.Assert;

/**
 * The lock table's schema scripts, {@code schema-<platform>.sql} beside this class, how
 * Lockable's auto-configuration runs them ({@code lockable.jdbc.initialize-schema}), and
 * the check of a store's table at startup. Internal: applications that manage their schema
 * (Flyway, Liquibase) copy the script of their platform into a migration of their own.
 */
public final class JdbcLockStoreSchema {

	private static final String TABLE_IN_SCRIPTS = "CREATE TABLE IF NOT EXISTS " + JdbcLockStore.DEFAULT_TABLE_NAME + " (";

	private static final String SCRIPTS = "io/github/lockable/store/jdbc/";

	private JdbcLockStoreSchema() {
	}

	/**
	 * Creates the lock table unless it exists, by the script of the database's platform.
	 * @param dataSource the database
	 * @param tableName the table, already checked by {@link JdbcLockStore}'s rule
	 * @throws IllegalStateException if the database is not supported or the script fails,
	 * with the database's own reason (the innermost {@link SQLException}'s message)
	 */
	public static void create(DataSource dataSource, String tableName) {
		String platform = null;
		try (Connection connection = dataSource.getConnection()) {
			platform = platform(connection.getMetaData());
			connection.setAutoCommit(true);
			ScriptUtils.executeSqlScript(connection,
					new ByteArrayResource(script(platform, tableName).getBytes(StandardCharsets.UTF_8)));
		}
		catch (SQLException | ScriptException ex) {
			// ScriptUtils wraps the driver's SQLException in a ScriptStatementFailedException
			// whose message is the whole script: the database's reason is the innermost one
			throw new IllegalStateException("could not create the lock table " + tableName + ": "
					+ databaseReason(ex) + ". Fix what the database says (a schema that does not exist, a user without "
					+ "the right to create tables there, a read-only database), or create the table yourself from "
					+ ((platform != null) ? scriptLocation(platform) : SCRIPTS + "schema-<platform>.sql")
					+ " inside lockable-store-jdbc and set lockable.jdbc.initialize-schema=never", ex);
		}
	}

	/**
	 * Whether the database is one that lives and dies with this JVM (H2 in memory), whose
	 * lock table the default {@code initialize-schema=embedded} creates.
	 * @param dataSource the database
	 * @return whether it is embedded
	 */
	public static boolean isEmbedded(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			String url = connection.getMetaData().getURL();
			return url != null && url.startsWith("jdbc:h2:mem:");
		}
		catch (SQLException ex) {
			return false;
		}
	}

	/**
	 * Checks a store's lock table as the store's own statements find it: that it exists,
	 * has every column of Lockable's script in a type the store can use, and has
	 * {@code lock_key} as its key.
	 * @param store the store
	 * @return what is wrong, or {@code null} when the table is as the store needs it
	 * @throws LockStoreException if the database could not be asked (unreachable, too slow)
	 */
	public static @Nullable TableProblem check(JdbcLockStore store) {
		return LockTableCheck.check(store.connections(), store.tableName());
	}

	/**
	 * What is wrong with a lock table, and how to make it right.
	 *
	 * @param missing whether the table does not exist (else its columns or key differ)
	 * @param description what is wrong and what to do, naming the table, the property that
	 * creates it and the script in the jar, in one line
	 * @param ddl the script of the database's platform for the table, without its comments
	 */
	public record TableProblem(boolean missing, String description, String ddl) {
	}

	/** Where the script of a platform is, inside lockable-store-jdbc. */
	static String scriptLocation(String platform) {
		return SCRIPTS + "schema-" + platform + ".sql";
	}

	/**
	 * What to do about a missing table, for the messages of the store (a call's failure, its
	 * health) and of the startup check.
	 */
	static String createAdvice(@Nullable String platform) {
		return "set lockable.jdbc.initialize-schema=always and Lockable creates it at startup, or create it in a "
				+ "migration of your own (Flyway, Liquibase) from "
				+ ((platform != null) ? scriptLocation(platform) : SCRIPTS + "schema-<platform>.sql")
				+ " inside lockable-store-jdbc";
	}

	/** The script of a platform without its comments, with the table's name in it. */
	static String ddl(String platform, String tableName) {
		return script(platform, tableName).lines()
			.filter((line) -> !line.startsWith("--"))
			.collect(Collectors.joining(System.lineSeparator()));
	}

	/** The script of a platform, with the table's name in it. */
	static String script(String platform, String tableName) {
		Assert.isTrue(JdbcLockStore.isTableName(tableName), () -> "Not a table name: " + tableName);
		ClassPathResource resource = new ClassPathResource("schema-" + platform + ".sql", JdbcLockStoreSchema.class);
		try (InputStream in = resource.getInputStream()) {
			String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			Assert.state(script.contains(TABLE_IN_SCRIPTS), () -> resource + " creates no " + JdbcLockStore.DEFAULT_TABLE_NAME);
			return script.replace(TABLE_IN_SCRIPTS, "CREATE TABLE IF NOT EXISTS " + tableName + " (");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The message of the innermost {@link SQLException} behind a failure, on one line. */
	static String databaseReason(Throwable failure) {
		String reason = null;
		for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
			if (cause instanceof SQLException && cause.getMessage() != null) {
				reason = cause.getMessage();
			}
		}
		return JdbcFailures.oneLine((reason != null) ? reason : failure.getMessage());
	}

	private static String platform(DatabaseMetaData metaData) throws SQLException {
		LockTableDialect dialect = LockTableDialect.of(metaData.getDatabaseProductName());
		if (dialect == null) {
			throw new IllegalStateException("The JDBC lock store does not support " + metaData.getDatabaseProductName()
					+ " yet; it runs on PostgreSQL, MySQL, MariaDB and H2");
		}
		return dialect.platform();
	}

}
