package io.github.lockable.kotlin

import io.github.lockable.Lockable
import io.github.lockable.aop.LockableConfigurationException
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
 * life, so `@Lockable` on a function returning one stops the application at startup.
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

	private fun assertRefused(jobs: Class<*>, method: String) {
		runner.withBean(jobs).run { context ->
			assertThat(context).hasFailed()
			val refusal = generateSequence(context.startupFailure) { it.cause }
				.filterIsInstance<LockableConfigurationException>()
				.firstOrNull()
			assertThat(refusal).describedAs("LockableConfigurationException in the cause chain of %s",
					context.startupFailure).isNotNull()
			assertThat(refusal!!.message).contains(method).contains("Flow")
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
