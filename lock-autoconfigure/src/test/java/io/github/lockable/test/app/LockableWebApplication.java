package io.github.lockable.test.app;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.Lockable;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.server.ResponseStatusException;

/**
 * A small web application for the end-to-end tests: one endpoint per behaviour, gated so
 * the tests decide when a lock is released.
 */
@ApplicationWithoutSecurity
@Import(RecordingStoreConfiguration.class)
public class LockableWebApplication {

	@Bean
	LockKeyResolver project() {
		return (invocation) -> "project:" + invocation.argument("projectId", UUID.class);
	}

	@Bean
	LockKeyResolver user() {
		return (invocation) -> {
			HttpServletRequest request = ((ServletRequestAttributes) RequestContextHolder.currentRequestAttributes())
				.getRequest();
			String user = request.getHeader("X-User");
			try {
				return "user:" + UUID.fromString(user);
			}
			catch (RuntimeException ex) {
				throw new InvalidLockKeyException("X-User is not a user id");
			}
		};
	}

	/** Returns whatever the request says: the tests send keys that break the rules. */
	@Bean
	LockKeyResolver raw() {
		return (invocation) -> invocation.argument("value", String.class);
	}

	@Bean
	Orders orders(JdbcTemplate jdbc, RecordingLockStore timeline) {
		jdbc.execute("create table if not exists orders (id varchar(64) primary key)");
		return new Orders(jdbc, timeline.events());
	}

	public record Comment(@NotBlank String text) {
	}

	private static final ExecutorService WORKERS = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "endpoint-work");
		thread.setDaemon(true);
		return thread;
	});

	@RestController
	static class Endpoints {

		private final Gate gate;

		private final Orders orders;

		private final AtomicInteger runs;

		Endpoints(Gate gate, Orders orders) {
			this.gate = gate;
			this.orders = orders;
			this.runs = gate.runs();
		}

		@GetMapping("/plain")
		String plain() {
			return "plain";
		}

		@PostMapping("/projects/{projectId}/archive")
		@Lockable(resolver = "project", ttl = "10s", conflictPolicy = ConflictPolicy.CONFLICT)
		String archive(@PathVariable UUID projectId) {
			this.runs.incrementAndGet();
			this.gate.pass("archive:" + projectId);
			return "archived";
		}

		@PostMapping("/projects/{projectId}/comments")
		@Lockable(resolver = "project")
		String comment(@PathVariable UUID projectId, @Valid @RequestBody Comment comment) {
			this.runs.incrementAndGet();
			return "commented";
		}

		@PostMapping("/admin/rebuild-index")
		@Lockable(key = "admin:rebuild-index", ttl = "20s", conflictPolicy = ConflictPolicy.LOCKED)
		String rebuild() {
			this.runs.incrementAndGet();
			this.gate.pass("rebuild");
			return "rebuilt";
		}

		@PostMapping("/me/export")
		@Lockable(resolver = "user", ttl = "5s", conflictPolicy = ConflictPolicy.TOO_MANY_REQUESTS)
		String export() {
			this.runs.incrementAndGet();
			this.gate.pass("export");
			return "exported";
		}

		@PostMapping("/projects/{projectId}/fail")
		@Lockable(resolver = "project")
		String fail(@PathVariable UUID projectId) {
			this.runs.incrementAndGet();
			throw new ResponseStatusException(HttpStatus.I_AM_A_TEAPOT, "handler failed on its own");
		}

		@PostMapping("/raw/{value}")
		@Lockable(resolver = "raw")
		String raw(@PathVariable String value) {
			this.runs.incrementAndGet();
			return "ran";
		}

		/** The whole body is the key part: any string a client can send, control characters included. */
		@PostMapping("/raw-body")
		@Lockable(resolver = "raw")
		String rawBody(@RequestBody(required = false) String value) {
			this.runs.incrementAndGet();
			return "ran";
		}

		@PostMapping("/projects/{projectId}/queue")
		@Lockable(resolver = "project", ttl = "20s", waitTime = "15s")
		String queue(@PathVariable UUID projectId) {
			this.runs.incrementAndGet();
			this.gate.pass("queue:" + projectId);
			return "queued";
		}

		@PostMapping("/short/{projectId}")
		@Lockable(resolver = "project", ttl = "300ms")
		String shortTtl(@PathVariable UUID projectId) {
			int run = this.runs.incrementAndGet();
			this.gate.pass("short:" + run);
			return "short";
		}

		/** The same lock as {@code /short}, with a TTL that outlives a test's steps on a busy machine. */
		@PostMapping("/long/{projectId}")
		@Lockable(resolver = "project", ttl = "30s")
		String longTtl(@PathVariable UUID projectId) {
			int run = this.runs.incrementAndGet();
			this.gate.pass("long:" + run);
			return "long";
		}

		@PostMapping("/orders/{id}")
		String order(@PathVariable String id) {
			this.orders.place(id);
			return "placed";
		}

		@GetMapping("/future/{projectId}")
		@Lockable(resolver = "project")
		CompletableFuture<String> future(@PathVariable UUID projectId) {
			this.runs.incrementAndGet();
			// Not the common pool: on two cores it has one worker, and from Java 25 on the JDK's
			// HTTP client completes its responses there.
			return CompletableFuture.supplyAsync(() -> {
				this.gate.pass("future:" + projectId);
				return "future";
			}, WORKERS);
		}

		@GetMapping("/mono/{projectId}")
		@Lockable(resolver = "project")
		Mono<String> mono(@PathVariable UUID projectId) {
			this.runs.incrementAndGet();
			return Mono.fromCallable(() -> {
				this.gate.pass("mono:" + projectId);
				return "mono";
			}).subscribeOn(Schedulers.boundedElastic());
		}

	}

	@Bean
	AsyncJobs asyncJobs(Gate gate) {
		return new AsyncJobs(gate.runs());
	}

	/**
	 * Asynchronous work that only ends when the test says so (or is cancelled).
	 */
	public static class AsyncJobs {

		private final AtomicInteger runs;

		AsyncJobs(AtomicInteger runs) {
			this.runs = runs;
		}

		@Lockable(resolver = "project", ttl = "20s")
		public CompletableFuture<String> future(UUID projectId, CompletableFuture<String> work) {
			this.runs.incrementAndGet();
			return work;
		}

		@Lockable(resolver = "project", ttl = "20s", conflictPolicy = ConflictPolicy.SKIP)
		public CompletionStage<String> skippingFuture(UUID projectId, CompletableFuture<String> work) {
			this.runs.incrementAndGet();
			return work;
		}

		@Lockable(resolver = "project", ttl = "20s")
		public Mono<String> mono(UUID projectId, Mono<String> work) {
			return work.doOnSubscribe((subscription) -> this.runs.incrementAndGet());
		}

		@Lockable(resolver = "project", ttl = "20s", conflictPolicy = ConflictPolicy.SKIP)
		public Mono<String> skippingMono(UUID projectId, Mono<String> work) {
			return work.doOnSubscribe((subscription) -> this.runs.incrementAndGet());
		}

		/**
		 * Does work before it returns its Mono (a charge, a write, a log line): that work must
		 * run under the lock too. Records the thread it ran on.
		 */
		@Lockable(resolver = "project", ttl = "20s")
		public Mono<String> eagerMono(UUID projectId, Mono<String> work, List<String> threads) {
			this.runs.incrementAndGet();
			threads.add(Thread.currentThread().getName());
			return work;
		}

	}

	/** Adds "committed" or "rolled back" to the timeline when the current transaction ends. */
	static void recordTransactionEnd(List<String> timeline) {
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
			@Override
			public void afterCompletion(int status) {
				timeline.add((status == STATUS_COMMITTED) ? "committed" : "rolled back");
			}
		});
	}

	@Bean
	OrderDesk orderDesk(Orders orders, RecordingLockStore timeline) {
		return new OrderDesk(orders, timeline.events());
	}

	/**
	 * Begins a transaction and calls a locked method inside it, then goes on in the same
	 * transaction.
	 */
	public static class OrderDesk {

		private final Orders orders;

		private final List<String> timeline;

		OrderDesk(Orders orders, List<String> timeline) {
			this.orders = orders;
			this.timeline = timeline;
		}

		@Transactional
		public void placeAndThen(String id, Runnable stillInTransaction) {
			recordTransactionEnd(this.timeline);
			this.orders.placeJoined(id);
			stillInTransaction.run();
			if (id.startsWith("bad")) {
				throw new IllegalStateException("refused order");
			}
		}

	}

	/**
	 * A transactional write under a lock. Records when the transaction ends, so a test can
	 * compare it with the release the store recorded.
	 */
	public static class Orders {

		private final JdbcTemplate jdbc;

		private final List<String> timeline;

		Orders(JdbcTemplate jdbc, List<String> timeline) {
			this.jdbc = jdbc;
			this.timeline = timeline;
		}

		@Lockable(key = "orders", ttl = "10s")
		@Transactional
		public void place(String id) {
			this.timeline.add("transaction active: " + TransactionSynchronizationManager.isActualTransactionActive());
			recordTransactionEnd(this.timeline);
			this.jdbc.update("insert into orders (id) values (?)", id);
			if (id.startsWith("bad")) {
				throw new IllegalStateException("refused order");
			}
		}

		/** Joins the caller's transaction, if there is one. */
		@Lockable(key = "orders-joined", ttl = "10s")
		public void placeJoined(String id) {
			this.timeline.add("transaction active: " + TransactionSynchronizationManager.isActualTransactionActive());
			this.jdbc.update("insert into orders (id) values (?)", id);
		}

		public int count() {
			return this.jdbc.queryForObject("select count(*) from orders", Integer.class);
		}

		public boolean exists(String id) {
			return this.jdbc.queryForObject("select count(*) from orders where id = ?", Integer.class, id) > 0;
		}

	}

}
