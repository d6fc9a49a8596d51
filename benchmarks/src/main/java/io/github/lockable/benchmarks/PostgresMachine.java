package io.github.lockable.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

import javax.sql.DataSource;

/**
 * What {@link JdbcSideBySide} reads of its PostgreSQL server: the version, and the CPU time
 * of the server's processes (the postmaster, its backends and background workers) from
 * {@code /proc}, as {@link Machine#redisCpuMicros} reads Redis's.
 */
final class PostgresMachine {

	/** {@code /proc} counts CPU time in clock ticks of 1/100 s on Linux. */
	private static final long MICROS_PER_TICK = 10_000;

	private final String version;

	private final long postmaster;

	PostgresMachine(DataSource dataSource) throws SQLException {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery("SELECT version(), pg_backend_pid()")) {
			row.next();
			this.version = row.getString(1);
			this.postmaster = field(Path.of("/proc", Long.toString(row.getLong(2)), "stat"), 1);
		}
	}

	String version() {
		return this.version;
	}

	/**
	 * The server's CPU time so far, user and system: the postmaster's own and that of the
	 * children it reaped, plus every live child's.
	 * @return microseconds, or 0 when {@code /proc} cannot be read
	 */
	long cpuMicros() {
		if (this.postmaster <= 0) {
			return 0;
		}
		long ticks = field(stat(this.postmaster), 11) + field(stat(this.postmaster), 12)
				+ field(stat(this.postmaster), 13) + field(stat(this.postmaster), 14);
		try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
			ticks += processes.filter((dir) -> dir.getFileName().toString().chars().allMatch(Character::isDigit))
				.map((dir) -> dir.resolve("stat"))
				.filter((stat) -> field(stat, 1) == this.postmaster)
				.mapToLong((stat) -> field(stat, 11) + field(stat, 12))
				.sum();
		}
		catch (IOException ex) {
			return 0;
		}
		return ticks * MICROS_PER_TICK;
	}

	private static Path stat(long pid) {
		return Path.of("/proc", Long.toString(pid), "stat");
	}

	/**
	 * A field of {@code /proc/<pid>/stat}, counted from the one after the command name (the
	 * state is 0, the parent's pid 1, utime 11, stime 12, cutime 13, cstime 14).
	 */
	private static long field(Path stat, int index) {
		try {
			String line = Files.readString(stat);
			String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
			return Long.parseLong(fields[index]);
		}
		catch (IOException | RuntimeException ex) {
			// a process that ended meanwhile
			return 0;
		}
	}

}
