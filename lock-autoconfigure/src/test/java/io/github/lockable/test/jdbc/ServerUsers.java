package io.github.lockable.test.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The operating system users the test database servers run as when the JVM is root, as it
 * is in containers and CI: the servers refuse root, or run as root only when told to.
 */
final class ServerUsers {

	private static final Path PASSWD = Paths.get("/etc/passwd");

	private ServerUsers() {
	}

	static boolean jvmIsRoot() {
		return "root".equals(System.getProperty("user.name"));
	}

	/**
	 * The first of some users that exists.
	 * @param candidates the users, preferred first
	 * @return the user, or null if none exists
	 */
	static String firstExisting(List<String> candidates) {
		if (!Files.isReadable(PASSWD)) {
			return null;
		}
		try {
			List<String> lines = Files.readAllLines(PASSWD);
			for (String candidate : candidates) {
				if (lines.stream().anyMatch((line) -> line.startsWith(candidate + ":"))) {
					return candidate;
				}
			}
			return null;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
