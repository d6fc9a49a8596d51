package io.github.lockable.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.ConflictPolicy;

import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.interceptor.ExposeInvocationInterceptor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.transaction.interceptor.TransactionInterceptor;
import org.springframework.validation.beanvalidation.MethodValidationInterceptor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only the validation advisors behind the lock move, to just in front of it.
 */
class ValidationBeforeLockPostProcessorTests {

	private static final class LockableAdvisorCollaborators {

		static <T> T unexpected() {
			throw new AssertionError("no call expected");
		}

	}

	private final ValidationBeforeLockPostProcessor postProcessor = new ValidationBeforeLockPostProcessor();

	private final Advisor lock = new LockableAdvisor(
			() -> new LockDefaults(Duration.ofSeconds(30), ConflictPolicy.CONFLICT, StoreFailurePolicy.FAIL),
			() -> new LockKeys("lock", 200), LockableAdvisorCollaborators::unexpected,
			LockableAdvisorCollaborators::unexpected, LockableAdvisorCollaborators::unexpected);

	private final Advisor validation = new DefaultPointcutAdvisor(new MethodValidationInterceptor());

	private final Advisor transaction = new DefaultPointcutAdvisor(new TransactionInterceptor());

	private final Advisor expose = ExposeInvocationInterceptor.ADVISOR;

	@Test
	void validationBehindTheLockMovesJustInFrontOfItAndNothingElseMoves() {
		Advisor last = new DefaultPointcutAdvisor(new TransactionInterceptor());
		Advised proxy = proxy(this.expose, this.lock, this.transaction, this.validation, last);
		assertThat(processed(proxy)).containsExactly(this.expose, this.validation, this.lock, this.transaction, last);
	}

	@Test
	void lockInsideTheTransactionStillGetsValidationJustInFrontOfIt() {
		Advised proxy = proxy(this.transaction, this.lock, this.validation);
		assertThat(processed(proxy)).containsExactly(this.transaction, this.validation, this.lock);
	}

	@Test
	void validationAlreadyInFrontOfTheLockStays() {
		Advised proxy = proxy(this.validation, this.lock, this.transaction);
		assertThat(processed(proxy)).containsExactly(this.validation, this.lock, this.transaction);
	}

	@Test
	void proxyWithoutTheLockIsLeftAsItIs() {
		Advised proxy = proxy(this.transaction, this.validation);
		assertThat(processed(proxy)).containsExactly(this.transaction, this.validation);
	}

	@Test
	void frozenProxyIsLeftAsItIs() {
		ProxyFactory factory = factory(this.lock, this.transaction, this.validation);
		factory.setFrozen(true);
		Advised proxy = (Advised) factory.getProxy();
		assertThat(processed(proxy)).containsExactly(this.lock, this.transaction, this.validation);
	}

	private Advisor[] processed(Advised proxy) {
		assertThat(this.postProcessor.postProcessAfterInitialization(proxy, "service")).isSameAs(proxy);
		return proxy.getAdvisors();
	}

	private static Advised proxy(Advisor... advisors) {
		return (Advised) factory(advisors).getProxy();
	}

	private static ProxyFactory factory(Advisor... advisors) {
		Runnable target = () -> {
		};
		ProxyFactory factory = new ProxyFactory(target);
		for (Advisor advisor : advisors) {
			factory.addAdvisor(advisor);
		}
		return factory;
	}

}
