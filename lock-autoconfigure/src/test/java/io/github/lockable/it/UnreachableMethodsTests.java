package io.github.lockable.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.LockContext;
import io.github.lockable.Lockable;
import io.github.lockable.LockableConfigurationException;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A {@code @Lockable} method that no proxy intercepts (private, static, or final under a
 * class proxy) would run unlocked: the application refuses to start and says why.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnreachableMethodsTests {

	@Test
	void privateStaticAndFinalMethodsFailStartupUnderClassProxies(CapturedOutput output) {
		LockableConfigurationException failure = startupFailure(UnreachableApplication.class, true);
		assertThat(failure.getProblems()).hasSize(3)
			.anySatisfy((problem) -> assertThat(problem).startsWith("UnreachableMethodsTests.Hidden.secret(): is private"))
			.anySatisfy((problem) -> assertThat(problem).startsWith("UnreachableMethodsTests.Hidden.shared(): is static"))
			.anySatisfy((problem) -> assertThat(problem)
				.startsWith("UnreachableMethodsTests.FinalReport.run(): is final, and a class (CGLIB) proxy cannot "
						+ "override a final method"));
		assertThat(output).contains("Lockable found 3 problems:")
			.contains("    - UnreachableMethodsTests.Hidden.secret(): is private, and no proxy intercepts a private "
					+ "method, so it would run without the lock; make it public and call it through the bean")
			.contains("    - UnreachableMethodsTests.Hidden.shared(): is static, and no proxy intercepts a static "
					+ "method, so it would run without the lock; make it an instance method and call it through the bean")
			.contains("    - UnreachableMethodsTests.FinalReport.run(): is final, and a class (CGLIB) proxy cannot "
					+ "override a final method, so it would run without the lock; remove final (in Kotlin: make it open)");
	}

	@Test
	void underInterfaceProxiesAFinalInterfaceMethodIsLockedButPrivateAndStaticOnesFailStartup() {
		LockableConfigurationException failure = startupFailure(UnreachableApplication.class, false);
		assertThat(failure.getProblems()).hasSize(2)
			.noneSatisfy((problem) -> assertThat(problem).contains("FinalReport"));
	}

	@Test
	void underInterfaceProxiesAFinalInterfaceMethodRunsLocked() {
		try (ConfigurableApplicationContext context = start(FinalReportApplication.class, false)) {
			Report report = context.getBean(Report.class);
			assertThat(AopUtils.isJdkDynamicProxy(report)).isTrue();
			assertThat(report.run()).isEqualTo("locked");
		}
	}

	private static LockableConfigurationException startupFailure(Class<?> application, boolean proxyTargetClass) {
		Throwable failure = catchThrowable(() -> start(application, proxyTargetClass).close());
		while (failure != null && !(failure instanceof LockableConfigurationException)) {
			failure = failure.getCause();
		}
		assertThat(failure).as("startup failure").isInstanceOf(LockableConfigurationException.class);
		return (LockableConfigurationException) failure;
	}

	private static ConfigurableApplicationContext start(Class<?> application, boolean proxyTargetClass) {
		return new SpringApplicationBuilder(application).web(WebApplicationType.NONE)
			.properties("lockable.store=memory", "spring.aop.proxy-target-class=" + proxyTargetClass,
					"spring.main.banner-mode=off", "spring.jmx.enabled=false")
			.run();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class FinalReportApplication {

		@Bean
		Report report() {
			return new FinalReport();
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(FinalReportApplication.class)
	static class UnreachableApplication {

		@Bean
		Hidden hidden() {
			return new Hidden();
		}

	}

	public interface Report {

		String run();

	}

	public static class FinalReport implements Report {

		@Override
		@Lockable(key = "report")
		public final String run() {
			return LockContext.current().isPresent() ? "locked" : "unlocked";
		}

	}

	public static class Hidden {

		@Lockable(key = "fine")
		public void fine() {
			secret();
		}

		@Lockable(key = "secret")
		private void secret() {
		}

		@Lockable(key = "shared")
		public static void shared() {
		}

	}

}
