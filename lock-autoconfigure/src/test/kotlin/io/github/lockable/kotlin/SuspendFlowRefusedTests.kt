package io.github.lockable.kotlin

import io.github.lockable.ConflictPolicy
import io.github.lockable.Lockable
import io.github.lockable.LockableConfigurationException
import io.github.lockable.autoconfigure.LockableAutoConfiguration
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flowOf
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration
import org.springframework.boot.test.context.runner.ApplicationContextRunner

/**
 * A `Flow` is a stream like a `Flux`: a lock around it would be held for the stream's whole
 * life, so `@Lockable` on a function returning one stops the application at startup. So does
 * `SKIP` on a suspend function whose result cannot be the `null` a skipped call returns.
 */
class SuspendFlowRefusedTests {

	private val runner = ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration::class.java,
				LockableAutoConfiguration::class.java))
		.withPropertyValues("lockable.store=memory")

	@Test
	fun `a suspend function returning Flow is refused at startup`() {
		assertRefused(SuspendFlowJobs::class.java, "SuspendFlowJobs.lines(")
	}

	@Test
	fun `a plain function returning Flow is refused at startup too`() {
		assertRefused(PlainFlowJobs::class.java, "PlainFlowJobs.lines(")
	}

	@Test
	fun `SKIP on a suspend function with a non-null result is refused at startup`() {
		assertRefused(NonNullSkipJobs::class.java, "NonNullSkipJobs.report(", "non-null type java.lang.String")
	}

	@Test
	fun `SKIP on a suspend function with a nullable or Unit result starts`() {
		runner.withBean(NullableSkipJobs::class.java).run { context -> assertThat(context).hasNotFailed() }
	}

	private fun assertRefused(jobs: Class<*>, method: String, reason: String = "Flow") {
		runner.withBean(jobs).run { context ->
			assertThat(context).hasFailed()
			val refusal = generateSequence(context.startupFailure) { it.cause }
				.filterIsInstance<LockableConfigurationException>()
				.firstOrNull()
			assertThat(refusal).describedAs("LockableConfigurationException in the cause chain of %s",
					context.startupFailure).isNotNull()
			assertThat(refusal!!.message).contains(method).contains(reason)
		}
	}

}

open class SuspendFlowJobs {

	@Lockable(key = "kotlin:flow", ttl = "20s")
	open suspend fun lines(): Flow<String> = flowOf("a", "b")

}

open class PlainFlowJobs {

	@Lockable(key = "kotlin:flow", ttl = "20s")
	open fun lines(): Flow<String> = flowOf("a", "b")

}

open class NonNullSkipJobs {

	@Lockable(key = "kotlin:report", ttl = "20s", conflictPolicy = ConflictPolicy.SKIP)
	open suspend fun report(): String = "report"

}

open class NullableSkipJobs {

	@Lockable(key = "kotlin:report", ttl = "20s", conflictPolicy = ConflictPolicy.SKIP)
	open suspend fun report(): String? = "report"

	@Lockable(key = "kotlin:cleanup", ttl = "20s", conflictPolicy = ConflictPolicy.SKIP)
	open suspend fun cleanUp() {
	}

}
