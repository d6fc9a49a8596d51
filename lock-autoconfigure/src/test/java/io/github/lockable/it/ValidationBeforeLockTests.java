package io.github.lockable.it;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import jakarta.validation.ConstraintViolationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.CallerThreads;
import io.github.lockable.test.app.Gate;
import io.github.lockable.test.app.RecordingLockStore;
import io.github.lockable.test.app.ValidatedApplication;
import io.github.lockable.test.app.ValidatedApplication.Notes;
import io.github.lockable.test.app.ValidatedApplication.Renames;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.interceptor.TransactionInterceptor;
import org.springframework.validation.beanvalidation.MethodValidationInterceptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Arguments of a {@code @Validated} bean are checked before its lock is taken and before its
 * transaction begins: an invalid call never waits for, takes or is refused by the lock.
 */
@SpringBootTest(classes = ValidatedApplication.class, properties = "lockable.store=redis")
@ExtendWith(OutputCaptureExtension.class)
class ValidationBeforeLockTests {

	@Autowired
	private Renames renames;

	@Autowired
	private Notes notes;

	@Autowired
	private Gate gate;

	@Autowired
	private RecordingLockStore store;

	@Autowired
	@Qualifier("lockableAdvisor")
	private Advisor lockableAdvisor;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@BeforeEach
	void clean() {
		RedisTestServer.shared().flushAll();
		this.store.clear();
	}

	@AfterEach
	void openGates() {
		this.gate.reset();
	}

	@Test
	void invalidCallIsRefusedBeforeTheLockAndTheTransaction() {
		assertThatExceptionOfType(ConstraintViolationException.class).isThrownBy(() -> this.renames.change(" "));
		assertThat(this.store.events()).containsExactly("validate");
	}

	@Test
	void invalidCallGetsItsValidationErrorWhileTheLockIsHeld() throws Exception {
		CompletableFuture<String> holder = CallerThreads.supplyAsync(() -> this.renames.change("holder"));
		this.gate.awaitEntered("holder", 1);

		assertThatExceptionOfType(ConstraintViolationException.class).isThrownBy(() -> this.renames.change(""));

		this.gate.open("holder");
		assertThat(holder.get(20, TimeUnit.SECONDS)).isEqualTo("changed to holder");
		assertThat(this.store.acquired()).hasSize(1);
	}

	@Test
	void validCallIsValidatedThenLockedThenRunInItsTransaction() {
		this.gate.open("alice");
		assertThat(this.renames.change("alice")).isEqualTo("changed to alice");
		assertThat(this.store.events()).containsExactly("validate", "acquire lock:validated", "begin transaction",
				"change alice in transaction", "release lock:validated");
	}

	@Test
	void validationAdviceSitsBeforeTheLockWhichSitsBeforeTheTransaction() {
		List<Advisor> advisors = advisors(this.renames);
		int validation = indexOf(advisors, (advisor) -> advisor.getAdvice() instanceof MethodValidationInterceptor);
		int lock = indexOf(advisors, (advisor) -> advisor == this.lockableAdvisor);
		int transaction = indexOf(advisors, (advisor) -> advisor.getAdvice() instanceof TransactionInterceptor);
		assertThat(validation).isNotNegative().isLessThan(lock);
		assertThat(lock).isLessThan(transaction);
	}

	@Test
	void beanWithoutLockKeepsSpringsOrderWithValidationInnermost() {
		List<Advisor> advisors = advisors(this.notes);
		assertThat(advisors).doesNotContain(this.lockableAdvisor);
		assertThat(indexOf(advisors, (advisor) -> advisor.getAdvice() instanceof TransactionInterceptor))
			.isLessThan(indexOf(advisors, (advisor) -> advisor.getAdvice() instanceof MethodValidationInterceptor));
		assertThat(advisors.get(advisors.size() - 1).getAdvice()).isInstanceOf(MethodValidationInterceptor.class);
	}

	@Test
	void startupLogsNoPostProcessorEligibilityWarningAboutTheValidationOrder(CapturedOutput output) {
		assertThat(output.getAll()).contains("Started ValidationBeforeLockTests");
		assertThat(output.getAll().lines().filter((line) -> line.contains("not eligible for getting processed")))
			.noneMatch((line) -> line.contains("validationBeforeLockPostProcessor"));
	}

	private static List<Advisor> advisors(Object bean) {
		assertThat(bean).isInstanceOf(Advised.class);
		return Arrays.asList(((Advised) bean).getAdvisors());
	}

	private static int indexOf(List<Advisor> advisors, Predicate<Advisor> match) {
		for (int i = 0; i < advisors.size(); i++) {
			if (match.test(advisors.get(i))) {
				return i;
			}
		}
		return -1;
	}

}
