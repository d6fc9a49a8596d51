package io.github.lockable.it;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.lockable.LockConflictException;
import io.github.lockable.Lockable;
import io.github.lockable.test.app.Gate;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every {@code @Lockable} method is locked whatever creates the proxies: class or interface
 * proxies, with or without AspectJ, with or without transaction management, with or without
 * {@code spring.aop.auto}. A full application start in each combination; in each, a first
 * caller holds the lock inside the method and a second caller is refused.
 */
class ProxyModeMatrixTests {

	static Stream<Arguments> combinations() {
		List<Arguments> combinations = new ArrayList<>();
		for (boolean proxyTargetClass : new boolean[] { true, false }) {
			for (boolean aspectj : new boolean[] { true, false }) {
				for (boolean transactions : new boolean[] { true, false }) {
					for (boolean aopAuto : new boolean[] { true, false }) {
						combinations.add(Arguments.of(proxyTargetClass, aspectj, transactions, aopAuto));
					}
				}
			}
		}
		return combinations.stream();
	}

	@ParameterizedTest(name = "proxy-target-class={0}, AspectJ={1}, spring-tx={2}, spring.aop.auto={3}")
	@MethodSource("combinations")
	void everyLockableMethodIsLocked(boolean proxyTargetClass, boolean aspectj, boolean transactions,
			boolean aopAuto) {
		List<String> hidden = new ArrayList<>();
		if (!aspectj) {
			hidden.add("org.aspectj");
		}
		if (!transactions) {
			hidden.add("org.springframework.transaction");
		}
		ClassLoader classLoader = new FilteredClassLoader(hidden.toArray(String[]::new));
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(MatrixApplication.class)
			.resourceLoader(new DefaultResourceLoader(classLoader))
			.web(WebApplicationType.NONE)
			.properties("lockable.store=memory", "spring.aop.proxy-target-class=" + proxyTargetClass,
					"spring.aop.auto=" + aopAuto, "spring.main.banner-mode=off", "spring.jmx.enabled=false")
			.run()) {
			// What auto-configuration's conditions saw.
			assertThat(ClassUtils.isPresent("org.aspectj.weaver.Advice", context.getClassLoader())).isEqualTo(aspectj);
			assertThat(context.getBeanNamesForType(ClassUtils.resolveClassName(
					"org.springframework.transaction.TransactionManager", ProxyModeMatrixTests.class.getClassLoader())))
				.as("transaction manager").hasSize(transactions ? 1 : 0);
			Gate gate = context.getBean(Gate.class);
			InterfaceAnnotated onInterface = context.getBean(InterfaceAnnotated.class);
			ClassAnnotated onClass = context.getBean(ClassAnnotated.class);
			NoInterface noInterface = context.getBean(NoInterface.class);
			assertSecondCallerRefused(gate, "interface", () -> onInterface.hold(gate));
			assertSecondCallerRefused(gate, "class", () -> onClass.hold(gate));
			assertSecondCallerRefused(gate, "no-interface", () -> noInterface.hold(gate));
			assertThat(AopUtils.isJdkDynamicProxy(onInterface)).as("interface proxy").isEqualTo(!proxyTargetClass);
			assertThat(AopUtils.isJdkDynamicProxy(onClass)).as("interface proxy").isEqualTo(!proxyTargetClass);
			assertThat(AopUtils.isCglibProxy(noInterface)).as("class proxy of a bean without interface").isTrue();
		}
	}

	private static void assertSecondCallerRefused(Gate gate, String name, Runnable call) {
		CompletableFuture<Void> first = CompletableFuture.runAsync(call);
		try {
			gate.awaitEntered(name, 1);
			assertThatExceptionOfType(LockConflictException.class).as(name).isThrownBy(call::run);
			assertThat(gate.entered(name)).as(name + " entered").isEqualTo(1);
		}
		finally {
			gate.open(name);
		}
		first.orTimeout(30, TimeUnit.SECONDS).join();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class MatrixApplication {

		@Bean
		Gate gate() {
			return new Gate();
		}

		@Bean
		InterfaceAnnotated interfaceAnnotated() {
			return new InterfaceAnnotatedJob();
		}

		@Bean
		ClassAnnotated classAnnotated() {
			return new ClassAnnotatedJob();
		}

		@Bean
		NoInterface noInterface() {
			return new NoInterface();
		}

	}

	public interface InterfaceAnnotated {

		@Lockable(key = "matrix:interface")
		void hold(Gate gate);

	}

	public static class InterfaceAnnotatedJob implements InterfaceAnnotated {

		@Override
		public void hold(Gate gate) {
			passUnlessInside(gate, "interface");
		}

	}

	public interface ClassAnnotated {

		void hold(Gate gate);

	}

	public static class ClassAnnotatedJob implements ClassAnnotated {

		@Override
		@Lockable(key = "matrix:class")
		public void hold(Gate gate) {
			passUnlessInside(gate, "class");
		}

	}

	public static class NoInterface {

		@Lockable(key = "matrix:no-interface")
		public void hold(Gate gate) {
			passUnlessInside(gate, "no-interface");
		}

	}

	/**
	 * The first caller waits inside for the gate; a second caller that got in (unlocked)
	 * records its entry and returns at once, so that a failing test does not hang.
	 */
	private static void passUnlessInside(Gate gate, String name) {
		if (gate.entered(name) == 0) {
			gate.pass(name);
		}
		else {
			throw new IllegalStateException("entered while the first caller was inside");
		}
	}

}
