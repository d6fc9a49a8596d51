package io.github.lockable.kotlin

import io.github.lockable.LockConflictException
import io.github.lockable.LockKeyResolver
import io.github.lockable.Lockable
import io.github.lockable.test.redis.RedisTestServer
import io.r2dbc.h2.H2ConnectionFactory
import io.r2dbc.spi.ConnectionFactory
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Bean
import org.springframework.r2dbc.connection.R2dbcTransactionManager
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.transaction.ReactiveTransactionManager
import org.springframework.transaction.reactive.TransactionalOperator
import org.springframework.transaction.reactive.executeAndAwait
import java.time.Duration
import java.util.UUID
import kotlin.time.Duration.Companion.seconds

/**
 * A `suspend` function runs as a Mono through the same advice: called inside a reactive
 * transaction its caller began, it holds its lock until that transaction completes.
 */
@SpringBootTest(classes = [SuspendTransactionApplication::class], webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = ["lockable.store=redis"])
class SuspendReactiveTransactionTests {

	companion object {

		@JvmStatic
		@DynamicPropertySource
		fun redis(registry: DynamicPropertyRegistry) {
			RedisTestServer.shared().registerProperties(registry)
		}

	}

	@Autowired
	private lateinit var jobs: TransactionalSuspendJobs

	@Autowired
	private lateinit var operator: TransactionalOperator

	private val redis = RedisTestServer.shared()

	@Test
	fun `a suspend function called inside the caller's transaction holds its lock until that transaction commits`(): Unit =
		runBlocking {
			withTimeout(20.seconds) {
				val id = "kotlin-tx-" + UUID.randomUUID()
				val returned = CompletableDeferred<Unit>()
				val gate = CompletableDeferred<Unit>()
				val caller = async(Dispatchers.Default) {
					operator.executeAndAwait {
						jobs.touch(id)
						returned.complete(Unit)
						gate.await()
					}
				}
				returned.await()

				assertThat(keyExists(id)).describedAs("lock while the caller's transaction is open").isTrue()
				assertThat(runCatching { jobs.touch(id) }.exceptionOrNull())
					.isInstanceOf(LockConflictException::class.java)

				gate.complete(Unit)
				caller.await()
				await().atMost(Duration.ofSeconds(10)).until { !keyExists(id) }
				assertThat(jobs.touch(id)).describedAs("a call after the commit").isEqualTo("touched:$id")
			}
		}

	private fun keyExists(id: String) = redis.commands().exists("lock:$id") == 1L

}

@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class SuspendTransactionApplication {

	@Bean
	fun connectionFactory(): ConnectionFactory = H2ConnectionFactory.inMemory("lockable-suspend-" + UUID.randomUUID())

	@Bean
	fun transactionManager(connectionFactory: ConnectionFactory) = R2dbcTransactionManager(connectionFactory)

	@Bean
	fun transactionalOperator(transactionManager: ReactiveTransactionManager) =
		TransactionalOperator.create(transactionManager)

	@Bean
	fun transactionalSuspendJobs() = TransactionalSuspendJobs()

	@Bean
	fun byTransactionId() = LockKeyResolver { invocation -> checkNotNull(invocation.argument("id", String::class.java)) }

}

/** Open, because Spring proxies it with CGLIB. */
open class TransactionalSuspendJobs {

	@Lockable(resolver = "byTransactionId", ttl = "20s")
	open suspend fun touch(id: String): String {
		delay(1)
		return "touched:$id"
	}

}
