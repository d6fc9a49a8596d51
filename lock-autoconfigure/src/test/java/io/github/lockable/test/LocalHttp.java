package io.github.lockable.test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.context.ApplicationContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * The HTTP client of the tests: requests to an application on this machine's loopback
 * address, with the response body as a string. Registered as an extension
 * ({@code @RegisterExtension final LocalHttp http = new LocalHttp();}) it finds the port
 * of the test's {@code RANDOM_PORT} application before each test; {@link #of} serves an
 * application the test started itself. The JDK's client, not Boot's
 * {@code TestRestTemplate}: the suites send requests concurrently and hold them open, and
 * the same code runs on every Boot line.
 */
public final class LocalHttp implements BeforeEachCallback {

	private static final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	/** How long a request may wait for its response. */
	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	/** {@code http://127.0.0.1:<port>}, empty until the application is known. */
	private String base = "";

	/** A client for the test's own application, whose port it reads before each test. */
	public LocalHttp() {
	}

	private LocalHttp(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	/**
	 * A client for a running web application.
	 * @param context the application, started on a port of its own
	 * @return a client for its port
	 */
	public static LocalHttp of(ApplicationContext context) {
		return new LocalHttp(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.base = of(SpringExtension.getApplicationContext(context)).base;
	}

	/**
	 * Sends a request without a body and waits for the response.
	 * @param method the HTTP method
	 * @param path the path, with its query
	 * @param headers names and values of request headers, alternating
	 * @return the response
	 */
	public HttpResponse<String> send(String method, String path, String... headers)
			throws IOException, InterruptedException {
		return send(request(method, path, headers).build());
	}

	/**
	 * Sends a request without a body.
	 * @param method the HTTP method
	 * @param path the path, with its query
	 * @param headers names and values of request headers, alternating
	 * @return the response, when it comes
	 */
	public CompletableFuture<HttpResponse<String>> sendAsync(String method, String path, String... headers) {
		return client.sendAsync(request(method, path, headers).build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Sends a request with a body and waits for the response.
	 * @param method the HTTP method
	 * @param path the path, with its query
	 * @param contentType the body's media type
	 * @param body the body, sent as UTF-8
	 * @return the response
	 */
	public HttpResponse<String> sendBody(String method, String path, String contentType, String body)
			throws IOException, InterruptedException {
		return send(request(method, path, "Content-Type", contentType)
			.method(method, HttpRequest.BodyPublishers.ofString(body))
			.build());
	}

	/** A {@code POST} without a body: {@link #send(String, String, String...)}. */
	public HttpResponse<String> post(String path) throws IOException, InterruptedException {
		return send("POST", path);
	}

	/** A {@code POST} without a body: {@link #sendAsync(String, String, String...)}. */
	public CompletableFuture<HttpResponse<String>> postAsync(String path) {
		return sendAsync("POST", path);
	}

	private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
		return client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest.Builder request(String method, String path, String... headers) {
		if (this.base.isEmpty()) {
			throw new IllegalStateException("No application yet: register LocalHttp as an extension of a "
					+ "RANDOM_PORT test, or create it with LocalHttp.of(context)");
		}
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + path))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.timeout(TIMEOUT);
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return request;
	}

}
