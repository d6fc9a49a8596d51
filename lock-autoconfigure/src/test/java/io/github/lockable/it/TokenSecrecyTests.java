package io.github.lockable.it;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockLease;
import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.app.RecordingLockStore;
import io.github.lockable.test.app.StoreWarmUp;
import io.github.lockable.test.app.TokenScanner;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisMonitor;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * No lock token leaves the store: not in a response (body or header), a log line of
 * Lockable at any level (TRACE here), an exception's message or stack trace, nor the
 * {@code lockable} Actuator endpoint, through every HTTP flow: acquire and release, 409,
 * 423 and 429, 400, a lost lock, a store failure (503) and the late acquire it cleans up.
 * <p>
 * The tokens are every first script argument Redis MONITOR saw, so tokens of acquires that
 * failed count too, and every token of a lease the store granted. Lettuce's own DEBUG and
 * TRACE logging is left at its default: it prints the commands it sends, tokens included,
 * and is no place for production logs (the README says so).
 */
@SpringBootTest(classes = { LockableWebApplication.class, TokenSecrecyTests.ExceptionRecorder.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "logging.level.io.github.lockable=TRACE", "management.endpoints.web.exposure.include=lockable" })
@ExtendWith({ OutputCaptureExtension.class, RedisExtension.class })
class TokenSecrecyTests extends GatedHttpTests {

	private final RedisTestServer redis = RedisTestServer.shared();

	private final Map<String, String> captured = new LinkedHashMap<>();

	@Autowired
	private RecordingLockStore store;

	@Autowired
	private ExceptionRecorder exceptions;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@BeforeEach
	void clean() {
		StoreWarmUp.awaitAnswering(this.store);
		this.gate.reset();
		this.store.clear();
		this.exceptions.clear();
	}

	@Test
	void noTokenInResponsesLogsExceptionsOrTheEndpoint(CapturedOutput output) throws Exception {
		Set<String> tokens = new LinkedHashSet<>();
		try (RedisMonitor monitor = RedisMonitor.start(this.redis)) {
			// acquire, the endpoint and a conflict while held, release
			UUID project = UUID.randomUUID();
			CompletableFuture<HttpResponse<String>> holder = sendAsync("/projects/" + project + "/archive");
			this.gate.awaitEntered("archive:" + project, 1);
			HttpResponse<String> endpoint = send("GET", "/actuator/lockable");
			assertThat(endpoint.statusCode()).isEqualTo(200);
			assertThat(endpoint.body()).contains("lock:project:" + project);
			HttpResponse<String> stored = send("GET", "/actuator/lockable/locks");
			assertThat(stored.statusCode()).isEqualTo(200);
			assertThat(stored.body()).contains("lock:project:" + project, "Endpoints.archive(UUID)");
			assertThat(send("POST", "/projects/" + project + "/archive").statusCode()).isEqualTo(409);
			this.gate.open("archive:" + project);
			assertThat(keep(holder.get(20, TimeUnit.SECONDS)).statusCode()).isEqualTo(200);

			// 423 and 429
			CompletableFuture<HttpResponse<String>> rebuild = sendAsync("/admin/rebuild-index");
			this.gate.awaitEntered("rebuild", 1);
			assertThat(send("POST", "/admin/rebuild-index").statusCode()).isEqualTo(423);
			this.gate.open("rebuild");
			assertThat(keep(rebuild.get(20, TimeUnit.SECONDS)).statusCode()).isEqualTo(200);
			String user = UUID.randomUUID().toString();
			CompletableFuture<HttpResponse<String>> export = sendAsync("/me/export", "X-User", user);
			this.gate.awaitEntered("export", 1);
			assertThat(send("POST", "/me/export", "X-User", user).statusCode()).isEqualTo(429);
			this.gate.open("export");
			assertThat(keep(export.get(20, TimeUnit.SECONDS)).statusCode()).isEqualTo(200);

			// an invalid key
			assertThat(send("POST", "/raw/has%20space").statusCode()).isEqualTo(400);

			// a lost lock: the TTL (300ms) runs out while the handler works
			UUID late = UUID.randomUUID();
			String shortGate = "short:" + (this.gate.runs().get() + 1);
			CompletableFuture<HttpResponse<String>> lost = sendAsync("/short/" + late);
			this.gate.awaitEntered(shortGate, 1);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.redis.commands().exists("lock:project:" + late) == 0);
			this.gate.open(shortGate);
			assertThat(keep(lost.get(20, TimeUnit.SECONDS)).statusCode()).isEqualTo(200);
			assertThat(output).contains("expired before release");

			// a store failure: the acquire times out (2s) on a paused server, runs when it
			// answers again, and the store deletes that lock
			UUID paused = UUID.randomUUID();
			this.gate.open("archive:" + paused);
			this.redis.pause(Duration.ofSeconds(3));
			assertThat(send("POST", "/projects/" + paused + "/archive").statusCode()).isEqualTo(503);
			this.redis.recover();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.redis.commands().exists("lock:project:" + paused) == 0);

			monitor.firstScriptArguments().forEach((value) -> tokens.add(randomPart(value)));
		}
		List<String> granted = this.store.acquired().stream().map((lease) -> randomPart(lease.token())).toList();
		// archive, rebuild, export and the lost one; the paused acquire granted nothing
		assertThat(granted).hasSize(4);
		// MONITOR saw every granted token, and the one of the acquire that timed out.
		assertThat(tokens).containsAll(granted).hasSizeGreaterThan(granted.size());
		assertThat(tokens).allMatch((token) -> token.matches("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}"));

		this.captured.put("output", output.getAll());
		this.captured.put("exceptions", String.join("\n", this.exceptions.stackTraces));
		assertThat(this.exceptions.stackTraces).hasSizeGreaterThanOrEqualTo(5);
		assertThat(TokenScanner.leaks(tokens, this.captured)).isEmpty();
	}

	/**
	 * The secret part of a stored value: the value keeps its holder after the random token
	 * ({@code <token> <acquiredAt> <instance>\t<pid>\t<method>}), which the listing shows.
	 */
	private static String randomPart(String value) {
		int space = value.indexOf(' ');
		return (space < 0) ? value : value.substring(0, space);
	}

	@Test
	void scannerFindsATokenThatWasLogged(CapturedOutput output) throws Exception {
		UUID project = UUID.randomUUID();
		this.gate.open("archive:" + project);
		assertThat(send("POST", "/projects/" + project + "/archive").statusCode()).isEqualTo(200);
		String token = randomPart(this.store.acquired().get(0).token());
		this.captured.put("output", output.getAll());
		assertThat(TokenScanner.leaks(List.of(token), this.captured)).isEmpty();

		// The negative control: a careless TRACE line, the token without its hyphens.
		LoggerFactory.getLogger("io.github.lockable.it.Careless").trace("owner {}", token.replace("-", ""));
		this.captured.put("output", output.getAll());
		assertThat(TokenScanner.leaks(List.of(token), this.captured)).containsExactly("token " + token + " in output");
		assertThat(TokenScanner.leaks(List.of(token), Map.of("header", "X-Owner: " + token.toUpperCase())))
			.hasSize(1);
	}

	private HttpResponse<String> keep(HttpResponse<String> response) {
		String where = response.request().method() + " " + response.uri().getPath() + " " + response.statusCode();
		this.captured.put(where + " #" + this.captured.size() + " headers", response.headers().map().toString());
		this.captured.put(where + " #" + this.captured.size() + " body", response.body());
		return response;
	}

	private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
		return keep(this.http.send(method, path, headers));
	}

	private CompletableFuture<HttpResponse<String>> sendAsync(String path, String... headers) {
		return this.http.sendAsync("POST", path, headers);
	}

	/**
	 * Keeps the stack trace, messages and causes included, of every exception a handler
	 * threw, then lets the application's own resolvers render it.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ExceptionRecorder implements HandlerExceptionResolver, Ordered {

		final List<String> stackTraces = new CopyOnWriteArrayList<>();

		@Override
		public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
				Exception ex) {
			StringWriter trace = new StringWriter();
			ex.printStackTrace(new PrintWriter(trace));
			this.stackTraces.add(trace.toString());
			return null;
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

		void clear() {
			this.stackTraces.clear();
		}

	}

}
