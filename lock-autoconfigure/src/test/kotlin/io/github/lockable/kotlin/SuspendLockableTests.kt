package io.github.lockable.kotlin

import io.github.lockable.ConflictPolicy
import io.github.lockable.HeldLock
import io.github.lockable.LockContext
import io.github.lockable.LockConflictException
import io.github.lockable.LockKeyResolver
import io.github.lockable.Lockable
import io.github.lockable.test.redis.RedisTestServer
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.reactor.ReactorContext
import kotlin.coroutines.coroutineContext
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Bean
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import java.time.Duration
import java.util.UUID
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration.Companion.seconds

/**
 * `@Lockable` on Kotlin `suspend` functions, against a real Redis: the lock is held from
 * before the body starts until the body returns or throws, even when its caller was cancelled.
 *
 * Spring's proxy hands the advice a Publisher for the coroutine while the method's declared
 * return type is `Object`; these tests pin down that the lock is held like a `Mono`'s.
 */
@SpringBootTest(classes = [SuspendLockableApplication::class], webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = ["lockable.store=redis"])
class SuspendLockableTests {

	companion object {

		private val TIMEOUT = 20.seconds

		@JvmStatic
		@DynamicPropertySource
		fun redis(registry: DynamicPropertyRegistry) {
			RedisTestServer.shared().registerProperties(registry)
		}

	}

	@Autowired
	private lateinit var jobs: SuspendJobs

	@Autowired
	private lateinit var probe: Probe

	private val redis = RedisTestServer.shared()

	@AfterEach
	fun openEveryGate() {
		probe.openAll()
	}

	@Test
	fun `a second call conflicts while the first is suspended inside the body`() = locked {
		val id = newId()
		val first = async(Dispatchers.Default) { jobs.hold(id) }
		probe.entered(id)
		assertThat(keyExists(id)).describedAs("lock key while the first call is suspended in its body").isTrue()

		val second = runCatching { jobs.hold(id) }

		assertThat(second.exceptionOrNull()).isInstanceOf(LockConflictException::class.java)
		assertThat(probe.runs(id)).describedAs("body runs during the conflict").isEqualTo(1)
		assertThat(keyExists(id)).isTrue()

		probe.open(id)
		assertThat(first.await()).isEqualTo("done:$id")
		assertThat(keyExists(id)).describedAs("lock key once the first call returned").isFalse()
		assertThat(jobs.hold(id)).describedAs("a call after the release").isEqualTo("done:$id")
		assertThat(probe.runs(id)).isEqualTo(2)
		assertThat(keyExists(id)).isFalse()
	}

	@Test
	fun `the body does not run while another owner holds the lock`() = locked {
		val id = newId()
		redis.commands().psetex(key(id), Duration.ofSeconds(20).toMillis(), "another-owner")
		try {
			val call = runCatching { jobs.hold(id) }

			assertThat(call.exceptionOrNull()).isInstanceOf(LockConflictException::class.java)
			assertThat(probe.runs(id)).describedAs("body runs").isZero()
			assertThat(redis.commands().get(key(id))).describedAs("the holder's lock is left alone")
				.isEqualTo("another-owner")
		}
		finally {
			redis.commands().del(key(id))
		}
	}

	@Test
	fun `a body that throws releases the lock and the caller sees its exception`() = locked {
		val id = newId()
		val call = async(Dispatchers.Default) { runCatching { jobs.fail(id) } }
		probe.entered(id)
		assertThat(keyExists(id)).describedAs("lock key while the body is suspended").isTrue()

		probe.open(id)
		val failure = call.await().exceptionOrNull()

		assertThat(failure).isExactlyInstanceOf(BodyFailure::class.java).hasMessage("failed:$id")
		assertThat(keyExists(id)).describedAs("lock key after the body threw").isFalse()
		assertThat(probe.runs(id)).isEqualTo(1)
	}

	@Test
	fun `SKIP returns null while the lock is held and does not run the body`() = locked {
		val id = newId()
		val holder = async(Dispatchers.Default) { jobs.hold(id) }
		probe.entered(id)
		assertThat(keyExists(id)).describedAs("lock key while the holder is suspended").isTrue()

		val skipped = jobs.skippable(id)

		assertThat(skipped).isNull()
		assertThat(probe.runs("$id:skippable")).describedAs("skipped body runs").isZero()

		probe.open(id)
		assertThat(holder.await()).isEqualTo("done:$id")
		assertThat(jobs.skippable(id)).describedAs("once free").isEqualTo("ran:$id")
		assertThat(probe.runs("$id:skippable")).isEqualTo(1)
		assertThat(keyExists(id)).isFalse()
	}

	/**
	 * A caller's cancel ends the caller at once but does not cancel the locked work: like a
	 * cancelled CompletableFuture's task, it runs on to its end, and the lock keeps everybody
	 * else out until then.
	 */
	@Test
	fun `a cancelled caller leaves the body running under the lock until it ends`() = locked {
		val id = newId()
		val caller = launch(Dispatchers.Default) { jobs.cancellable(id) }
		probe.entered(id)
		assertThat(keyExists(id)).describedAs("lock key while the body is suspended").isTrue()

		caller.cancel()
		caller.join()

		assertThat(probe.signal("$id:cancelled").isCompleted).describedAs("body cancelled").isFalse()
		// A release on the cancel would come a moment later, from another thread: the key must
		// stay for a while, not just at one instant.
		await("lock key while the body of the cancelled caller still runs").during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until { keyExists(id) }
		assertThat(runCatching { jobs.hold(id) }.exceptionOrNull())
			.describedAs("a call while the body of the cancelled caller still runs")
			.isInstanceOf(LockConflictException::class.java)

		probe.open(id)
		probe.open("$id:cleanup")
		probe.signal("$id:stopped").await()
		await().atMost(Duration.ofSeconds(10)).untilAsserted {
			assertThat(keyExists(id)).describedAs("lock key once the body ended").isFalse()
		}
		assertThat(probe.runs(id)).isEqualTo(1)
	}

	@Test
	fun `the return value passes through`() = locked {
		assertThat(jobs.answer()).isEqualTo(42)
		assertThat(redis.commands().exists("lock:kotlin:answer")).isZero()
	}

	@Test
	fun `the body finds its lock and fencing token in the Reactor context`() = locked {
		val first = jobs.fencingToken()
		val second = jobs.fencingToken()
		assertThat(first).isPositive()
		assertThat(second).isGreaterThan(first)
	}

	private fun locked(test: suspend CoroutineScope.() -> Unit) = runBlocking {
		withTimeout(TIMEOUT) {
			test()
		}
	}

	private fun newId() = "kotlin-" + UUID.randomUUID()

	private fun key(id: String) = "lock:$id"

	private fun keyExists(id: String) = redis.commands().exists(key(id)) == 1L

}

@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class SuspendLockableApplication {

	@Bean
	fun probe() = Probe()

	@Bean
	fun suspendJobs(probe: Probe) = SuspendJobs(probe)

	/** The lock key is the call's `id` argument, so that every test has locks of its own. */
	@Bean
	fun byId() = LockKeyResolver { invocation -> checkNotNull(invocation.argument("id", String::class.java)) }

}

/** Suspend functions under `@Lockable`; open, because Spring proxies them with CGLIB. */
open class SuspendJobs(private val probe: Probe) {

	/** Runs until the test opens the gate named `id`. */
	@Lockable(resolver = "byId", ttl = "20s")
	open suspend fun hold(id: String): String {
		probe.ran(id)
		delay(1)
		probe.gate(id)
		return "done:$id"
	}

	/** Throws once the test opens the gate named `id`. */
	@Lockable(resolver = "byId", ttl = "20s")
	open suspend fun fail(id: String): String {
		probe.ran(id)
		delay(1)
		probe.gate(id)
		throw BodyFailure("failed:$id")
	}

	@Lockable(resolver = "byId", ttl = "20s", conflictPolicy = ConflictPolicy.SKIP)
	open suspend fun skippable(id: String): String? {
		probe.ran("$id:skippable")
		delay(1)
		return "ran:$id"
	}

	/**
	 * Waits for the gate `id`, then for `id:cleanup`; records whether it was cancelled and
	 * when it stopped.
	 */
	@Lockable(resolver = "byId", ttl = "20s")
	open suspend fun cancellable(id: String): String {
		probe.ran(id)
		try {
			delay(1)
			probe.gate(id)
			return "finished:$id"
		}
		catch (ex: CancellationException) {
			probe.signal("$id:cancelled").complete(Unit)
			throw ex
		}
		finally {
			withContext(NonCancellable) {
				probe.gate("$id:cleanup")
			}
			probe.signal("$id:stopped").complete(Unit)
		}
	}

	@Lockable(key = "kotlin:fenced", ttl = "20s")
	open suspend fun fencingToken(): Long {
		delay(1)
		val lock = coroutineContext[ReactorContext]?.context?.get<HeldLock>(LockContext.REACTOR_CONTEXT_KEY)
		assertThat(lock!!.isHeld).isTrue()
		return lock.fencingToken()
	}

	@Lockable(key = "kotlin:answer", ttl = "20s")
	open suspend fun answer(): Int {
		delay(1)
		return 42
	}

}

class BodyFailure(message: String) : RuntimeException(message)

/**
 * What the bodies did and the gates they wait at; a bean of its own because the proxied
 * [SuspendJobs] has no state a test could read.
 */
class Probe {

	private val runs = ConcurrentHashMap<String, AtomicInteger>()

	private val signals = ConcurrentHashMap<String, CompletableDeferred<Unit>>()

	/** Called first thing by a body: counts the run and lets [entered] return. */
	fun ran(name: String) {
		runs.computeIfAbsent(name) { AtomicInteger() }.incrementAndGet()
		signal("$name:entered").complete(Unit)
	}

	fun runs(name: String) = runs[name]?.get() ?: 0

	suspend fun entered(name: String) = signal("$name:entered").await()

	/** Called by a body: suspends until the test opens the gate. */
	suspend fun gate(name: String) = signal("$name:gate").await()

	fun open(name: String) {
		signal("$name:gate").complete(Unit)
	}

	fun signal(name: String): CompletableDeferred<Unit> = signals.computeIfAbsent(name) { CompletableDeferred() }

	fun openAll() {
		signals.values.forEach { it.complete(Unit) }
	}

}
