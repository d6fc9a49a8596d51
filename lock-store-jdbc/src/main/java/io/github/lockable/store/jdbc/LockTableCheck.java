package io.github.lockable.store.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.jdbc.JdbcLockStoreSchema.TableProblem;

/**
 * The startup check of a lock table, on the store's own connections: the table's columns
 * are read from an empty query of it ({@code SELECT * ... WHERE 1 = 0}), so the table is
 * found as the store's statements find it (search path, identifier case, MySQL's database
 * as the qualifier); its key from the driver's metadata. The check is lenient where the
 * store is: any text type wide enough for a key, any integer type for a pid; strict where a
 * difference breaks locking: the time type (a MySQL {@code TIMESTAMP} cannot hold the epoch
 * a released row expires at; a PostgreSQL {@code timestamp} without zone moves with the
 * session's zone) and the key, without which two callers could insert one lock twice.
 */
final class LockTableCheck {

	private enum Kind {

		TEXT, BIGINT, INTEGER, TIME

	}

	private record Column(String name, Kind kind, int width) {
	}

	private static final List<Column> COLUMNS = List.of(new Column("lock_key", Kind.TEXT, JdbcLockStore.MAX_KEY_LENGTH),
			new Column("token", Kind.TEXT, 36), new Column("fencing_token", Kind.BIGINT, 0),
			new Column("expires_at", Kind.TIME, 0), new Column("acquired_at", Kind.TIME, 0),
			new Column("holder_instance", Kind.TEXT, 0), new Column("holder_pid", Kind.INTEGER, 0),
			new Column("holder_method", Kind.TEXT, 0));

	private static final Set<Integer> TEXT = Set.of(Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR,
			Types.NVARCHAR, Types.LONGNVARCHAR, Types.CLOB, Types.NCLOB);

	private static final Set<Integer> INTEGER = Set.of(Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT);

	private LockTableCheck() {
	}

	static @Nullable TableProblem check(LockConnections connections, String table) {
		try {
			return connections.run("table check", null, (connection, sql) -> {
				List<String> wrong = new ArrayList<>();
				try (PreparedStatement statement = connections.prepare(connection, "SELECT * FROM " + table + " WHERE 1 = 0");
						ResultSet rows = statement.executeQuery()) {
					columns(rows.getMetaData(), sql.dialect(), wrong);
				}
				if (!keyedByLockKey(connection, table, sql.dialect())) {
					wrong.add("lock_key is neither its primary key nor unique, so two callers could both insert one lock");
				}
				String platform = sql.dialect().platform();
				return wrong.isEmpty() ? null : new TableProblem(false, "the lock table " + table
						+ " is not as Lockable's script creates it (" + String.join("; ", wrong)
						+ "): alter it, or drop it and create it from " + JdbcLockStoreSchema.scriptLocation(platform)
						+ " inside lockable-store-jdbc (lockable.jdbc.initialize-schema=always leaves a table that exists "
						+ "as it is)", JdbcLockStoreSchema.ddl(platform, table));
			});
		}
		catch (LockStoreException ex) {
			LockStatements known = connections.known();
			if (!JdbcFailures.NO_TABLE.equals(ex.getCode()) || known == null) {
				throw ex;
			}
			String platform = known.dialect().platform();
			return new TableProblem(true, "the lock table " + table + " does not exist: " + JdbcLockStoreSchema.createAdvice(platform),
					JdbcLockStoreSchema.ddl(platform, table));
		}
	}

	private static void columns(ResultSetMetaData metaData, LockTableDialect dialect, List<String> wrong)
			throws SQLException {
		Map<String, Integer> byName = new HashMap<>();
		for (int i = 1; i <= metaData.getColumnCount(); i++) {
			byName.put(metaData.getColumnLabel(i).toLowerCase(Locale.ROOT), i);
		}
		for (Column column : COLUMNS) {
			Integer index = byName.get(column.name());
			if (index == null) {
				wrong.add(column.name() + " is missing");
				continue;
			}
			int type = metaData.getColumnType(index);
			String typeName = metaData.getColumnTypeName(index);
			String problem = switch (column.kind()) {
				case TEXT -> !TEXT.contains(type) ? "is " + typeName + ", not a text type"
						: (column.width() > 0 && metaData.getPrecision(index) > 0
								&& metaData.getPrecision(index) < column.width())
										? "holds " + metaData.getPrecision(index) + " characters, fewer than "
												+ column.width()
										: null;
				case BIGINT -> (type == Types.BIGINT || (isNumeric(type) && metaData.getScale(index) == 0
						&& metaData.getPrecision(index) >= 18)) ? null : "is " + typeName + ", not a BIGINT";
				case INTEGER -> (INTEGER.contains(type) || (isNumeric(type) && metaData.getScale(index) == 0)) ? null
						: "is " + typeName + ", not an integer type";
				case TIME -> isLockTime(dialect, type, typeName) ? null : "is " + typeName + ", not " + lockTime(dialect);
			};
			if (problem != null) {
				wrong.add(column.name() + " " + problem);
			}
		}
	}

	/** Whether a column holds times as the store compares them, on the database's clock. */
	private static boolean isLockTime(LockTableDialect dialect, int type, String typeName) {
		String name = typeName.toUpperCase(Locale.ROOT);
		return switch (dialect) {
			case POSTGRESQL -> name.equals("TIMESTAMPTZ");
			case H2 -> type == Types.TIMESTAMP_WITH_TIMEZONE || name.contains("WITH TIME ZONE");
			case MYSQL -> name.startsWith("DATETIME");
		};
	}

	private static String lockTime(LockTableDialect dialect) {
		return switch (dialect) {
			case POSTGRESQL -> "timestamp with time zone";
			case H2 -> "TIMESTAMP(6) WITH TIME ZONE";
			case MYSQL -> "DATETIME(6) (a TIMESTAMP cannot hold the epoch that a released lock expires at)";
		};
	}

	private static boolean isNumeric(int type) {
		return type == Types.NUMERIC || type == Types.DECIMAL;
	}

	/**
	 * Whether the table's primary key, or a unique index, is {@code lock_key} alone; true
	 * when the driver's metadata does not find the table, which the query above did find.
	 */
	private static boolean keyedByLockKey(Connection connection, String table, LockTableDialect dialect)
			throws SQLException {
		DatabaseMetaData metaData = connection.getMetaData();
		int dot = table.indexOf('.');
		String qualifier = (dot < 0) ? null : identifier(metaData, table.substring(0, dot));
		String name = identifier(metaData, table.substring(dot + 1));
		// MySQL and MariaDB qualify a table by its database, JDBC's catalog; the others by a schema
		String catalog = (dialect == LockTableDialect.MYSQL && qualifier != null) ? qualifier : connection.getCatalog();
		String schema = (dialect == LockTableDialect.MYSQL) ? null : (qualifier != null) ? qualifier : connection.getSchema();
		try (ResultSet tables = metaData.getTables(catalog, schema, name, null)) {
			if (!tables.next()) {
				return true;
			}
		}
		List<String> primaryKey = new ArrayList<>();
		try (ResultSet keys = metaData.getPrimaryKeys(catalog, schema, name)) {
			while (keys.next()) {
				primaryKey.add(keys.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
			}
		}
		if (primaryKey.equals(List.of("lock_key"))) {
			return true;
		}
		Map<String, List<String>> uniqueIndexes = new HashMap<>();
		try (ResultSet indexes = metaData.getIndexInfo(catalog, schema, name, true, true)) {
			while (indexes.next()) {
				String index = indexes.getString("INDEX_NAME");
				String column = indexes.getString("COLUMN_NAME");
				if (index != null && column != null && !indexes.getBoolean("NON_UNIQUE")) {
					uniqueIndexes.computeIfAbsent(index, (key) -> new ArrayList<>()).add(column.toLowerCase(Locale.ROOT));
				}
			}
		}
		return uniqueIndexes.containsValue(List.of("lock_key"));
	}

	/** An unquoted identifier as the database stores it. */
	private static String identifier(DatabaseMetaData metaData, String identifier) throws SQLException {
		if (metaData.storesUpperCaseIdentifiers()) {
			return identifier.toUpperCase(Locale.ROOT);
		}
		return metaData.storesLowerCaseIdentifiers() ? identifier.toLowerCase(Locale.ROOT) : identifier;
	}

}
