package io.github.lockable.store.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.util.Assert;

/**
 * The lock table's schema scripts, {@code schema-<platform>.sql} beside this class, and
 * how Lockable's auto-configuration runs them ({@code lockable.jdbc.initialize-schema}).
 * Internal: applications that manage their schema (Flyway, Liquibase) copy the script of
 * their platform into a migration of their own.
 */
public final class JdbcLockStoreSchema {

	private static final String TABLE_IN_SCRIPTS = "CREATE TABLE IF NOT EXISTS " + JdbcLockStore.DEFAULT_TABLE_NAME + " (";

	private JdbcLockStoreSchema() {
	}

	/**
	 * Creates the lock table unless it exists, by the script of the database's platform.
	 * @param dataSource the database
	 * @param tableName the table, already checked by {@link JdbcLockStore}'s rule
	 * @throws IllegalStateException if the database is not supported or the script fails
	 */
	public static void create(DataSource dataSource, String tableName) {
		try (Connection connection = dataSource.getConnection()) {
			String platform = platform(connection.getMetaData());
			connection.setAutoCommit(true);
			ScriptUtils.executeSqlScript(connection,
					new ByteArrayResource(script(platform, tableName).getBytes(StandardCharsets.UTF_8)));
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not create the lock table " + tableName + ": " + ex.getMessage(), ex);
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

	private static String platform(DatabaseMetaData metaData) throws SQLException {
		LockTableDialect dialect = LockTableDialect.of(metaData.getDatabaseProductName());
		if (dialect == null) {
			throw new IllegalStateException("The JDBC lock store does not support " + metaData.getDatabaseProductName()
					+ " yet; it runs on PostgreSQL, MySQL, MariaDB and H2");
		}
		return dialect.platform();
	}

}
