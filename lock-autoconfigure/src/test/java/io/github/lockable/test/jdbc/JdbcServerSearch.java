package io.github.lockable.test.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.util.ClassUtils;

/**
 * Finds the database server of a product for the tests, first match wins: the URL in an
 * environment variable, a Testcontainers container when a Docker engine answers, the
 * binaries of the operating system's package ({@code path}), the binaries that come from
 * Maven ({@code embedded}). A mode variable ({@code url}, {@code container}, {@code path} or
 * {@code embedded}) restricts the search to one of them. When no way gives a server, the
 * search fails naming each way it tried and why it gave none.
 */
final class JdbcServerSearch {

	static final List<String> MODES = List.of("url", "container", "path", "embedded");

	private static final Logger logger = LoggerFactory.getLogger(JdbcServerSearch.class);

	private JdbcServerSearch() {
	}

	/**
	 * The ways to a server of one product.
	 * @param product the product's name, for the messages
	 * @param urlVariable the variable with a JDBC URL, such as {@code LOCKABLE_TEST_POSTGRES_URL}
	 * @param modeVariable the variable that restricts the search
	 * @param fromUrl a server at the address of a URL
	 * @param container starts a container, or throws
	 * @param path starts a server from the operating system's binaries, or throws saying how
	 * to install them
	 * @param embedded starts a server from the binaries of a test dependency, or throws
	 */
	record Ways<S>(String product, String urlVariable, String modeVariable, Function<DatabaseAddress, S> fromUrl,
			Supplier<S> container, Supplier<S> path, Supplier<S> embedded) {
	}

	/**
	 * The mode a variable asks for.
	 * @param modeVariable the variable
	 * @param environment the environment
	 * @return {@code url}, {@code container}, {@code path}, {@code embedded}, or null for any
	 * @throws IllegalStateException for another value
	 */
	static String mode(String modeVariable, Function<String, String> environment) {
		String mode = environment.apply(modeVariable);
		if (mode == null || mode.isBlank()) {
			return null;
		}
		String normalized = mode.trim().toLowerCase(Locale.ROOT);
		if (!MODES.contains(normalized)) {
			throw new IllegalStateException(modeVariable + " is '" + mode + "': " + String.join(", ", MODES));
		}
		return normalized;
	}

	static <S> S first(Ways<S> ways, Function<String, String> environment) {
		String mode = mode(ways.modeVariable(), environment);
		List<String> attempts = new ArrayList<>();
		if (wanted(mode, "url")) {
			String url = environment.apply(ways.urlVariable());
			if (url != null && !url.isBlank()) {
				return announce(ways.fromUrl().apply(DatabaseAddress.parse(url)));
			}
			attempts.add("url: " + ways.urlVariable() + " is not set");
		}
		if (wanted(mode, "container")) {
			S container = tryContainer(ways.container(), attempts);
			if (container != null) {
				return announce(container);
			}
		}
		for (String way : List.of("path", "embedded")) {
			if (wanted(mode, way)) {
				S server = tryWay(way, way.equals("path") ? ways.path() : ways.embedded(), attempts);
				if (server != null) {
					return announce(server);
				}
			}
		}
		throw new IllegalStateException("No " + ways.product() + " server for the tests"
				+ ((mode != null) ? " (" + ways.modeVariable() + "=" + mode + ")" : "") + ", tried " + attempts.size()
				+ ((attempts.size() == 1) ? " way" : " ways") + ": " + String.join("; ", attempts)
				+ ". Set " + ways.urlVariable() + " to a server's JDBC URL, start Docker, install the "
				+ "package named above, or let the build's test dependencies serve (" + ways.modeVariable()
				+ "=embedded); docs/testing.md says more.");
	}

	private static <S> S tryWay(String way, Supplier<S> start, List<String> attempts) {
		try {
			return start.get();
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("No {} server", way, ex);
			attempts.add(way + ": " + ex.getMessage());
			return null;
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
			attempts.add("container: no Docker engine answers Testcontainers");
			return null;
		}
		try {
			return container.get();
		}
		catch (RuntimeException | LinkageError ex) {
			attempts.add("container: " + ex);
			return null;
		}
	}

	private static boolean wanted(String mode, String candidate) {
		return mode == null || mode.equals(candidate);
	}

	private static <S> S announce(S server) {
		logger.info("Tests use {}", server);
		return server;
	}

}
