package io.github.lockable.test.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.util.ClassUtils;

/**
 * Finds the database server of a product for the tests, first match wins: the URL in an
 * environment variable, a Testcontainers container when a Docker engine answers, the
 * Debian binaries. A mode variable ({@code url}, {@code container} or {@code path})
 * restricts the search to one of them.
 */
final class JdbcServerSearch {

	private static final Logger logger = LoggerFactory.getLogger(JdbcServerSearch.class);

	private JdbcServerSearch() {
	}

	/**
	 * The ways to a server of one product.
	 * @param urlVariable the variable with a JDBC URL, such as {@code LOCKABLE_TEST_POSTGRES_URL}
	 * @param modeVariable the variable that restricts the search
	 * @param fromUrl a server at the address of a URL
	 * @param container starts a container, or throws
	 * @param path starts a server from the binaries, or throws saying how to install them
	 */
	record Ways<S>(String urlVariable, String modeVariable, Function<DatabaseAddress, S> fromUrl,
			Supplier<S> container, Supplier<S> path) {
	}

	static <S> S first(Ways<S> ways, Function<String, String> environment) {
		String mode = environment.apply(ways.modeVariable());
		if (mode != null && !mode.isBlank() && !List.of("url", "container", "path").contains(mode.trim().toLowerCase())) {
			throw new IllegalStateException(ways.modeVariable() + " is '" + mode + "': url, container or path");
		}
		List<String> attempts = new ArrayList<>();
		if (wanted(mode, "url")) {
			String url = environment.apply(ways.urlVariable());
			if (url != null && !url.isBlank()) {
				return announce(ways.fromUrl().apply(DatabaseAddress.parse(url)));
			}
			attempts.add(ways.urlVariable() + " is not set");
		}
		if (wanted(mode, "container")) {
			S container = tryContainer(ways.container(), attempts);
			if (container != null) {
				return announce(container);
			}
		}
		if (!wanted(mode, "path")) {
			throw new IllegalStateException("No database server for the tests (" + ways.modeVariable() + "=" + mode
					+ "): " + String.join("; ", attempts));
		}
		try {
			return announce(ways.path().get());
		}
		catch (IllegalStateException ex) {
			if (attempts.isEmpty()) {
				throw ex;
			}
			throw new IllegalStateException(ex.getMessage() + " Tried before: " + String.join("; ", attempts) + ".",
					ex);
		}
	}

	/** Whether Testcontainers is on the class path and a Docker engine answers it. */
	static boolean dockerAnswers() {
		if (!ClassUtils.isPresent("org.testcontainers.DockerClientFactory", JdbcServerSearch.class.getClassLoader())) {
			return false;
		}
		try {
			return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException | LinkageError ex) {
			return false;
		}
	}

	private static <S> S tryContainer(Supplier<S> container, List<String> attempts) {
		if (!dockerAnswers()) {
			attempts.add("Testcontainers: no Docker engine answers");
			return null;
		}
		try {
			return container.get();
		}
		catch (RuntimeException | LinkageError ex) {
			attempts.add("Testcontainers: " + ex);
			return null;
		}
	}

	private static boolean wanted(String mode, String candidate) {
		return mode == null || mode.isBlank() || mode.trim().equalsIgnoreCase(candidate);
	}

	private static <S> S announce(S server) {
		logger.info("Tests use {}", server);
		return server;
	}

}
