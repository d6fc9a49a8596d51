package io.github.lockable.test.jdbc;

import java.net.URI;

/**
 * Where a test database server answers: the JDBC URL of one of its databases is
 * {@code prefix + database}, then the query of the URL it was made from, if any.
 * @param prefix the URL up to and with the {@code /} before the database
 * @param query what follows {@code ?}, empty for nothing
 */
record DatabaseAddress(String prefix, String query) {

	static DatabaseAddress of(String scheme, String host, int port) {
		return new DatabaseAddress("jdbc:" + scheme + "://" + host + ":" + port + "/", "");
	}

	/**
	 * The address of a server given by a JDBC URL: its database, if it names one, is dropped,
	 * its query kept.
	 * @param url such as {@code jdbc:postgresql://db.example:5432/postgres?sslmode=disable}
	 * @return the address
	 */
	static DatabaseAddress parse(String url) {
		String trimmed = url.trim();
		int hosts = trimmed.indexOf("://");
		if (!trimmed.startsWith("jdbc:") || hosts < 0) {
			throw new IllegalArgumentException("Not a JDBC URL such as jdbc:postgresql://127.0.0.1:5432/postgres: " + url);
		}
		int question = trimmed.indexOf('?');
		String query = (question < 0) ? "" : trimmed.substring(question + 1);
		String base = (question < 0) ? trimmed : trimmed.substring(0, question);
		int slash = base.indexOf('/', hosts + 3);
		String prefix = (slash < 0) ? base + "/" : base.substring(0, slash + 1);
		return new DatabaseAddress(prefix, query);
	}

	String jdbcUrl(String database) {
		return this.prefix + database + (this.query.isEmpty() ? "" : "?" + this.query);
	}

	/** The port of the first host, or -1 when the URL gives none. */
	int port() {
		return URI.create(this.prefix.substring("jdbc:".length())).getPort();
	}

}
