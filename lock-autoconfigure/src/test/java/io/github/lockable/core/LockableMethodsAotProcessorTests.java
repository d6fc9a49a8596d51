package io.github.lockable.core;

import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.github.lockable.Lockable;

import org.springframework.aot.hint.ExecutableHint;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeHint;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.javapoet.ClassName;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.aot.BeanFactoryInitializationCode;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

class LockableMethodsAotProcessorTests {

	/**
	 * The methods registered for invocation, read from the hints themselves: the predicate
	 * Spring 6.2 offers for this (onMethod) is deprecated for removal in Spring 7, and the one
	 * that replaces it (onMethodInvocation) does not exist in 6.2.
	 */
	private static Set<String> invocableMethods(RuntimeHints hints, Class<?> type) {
		TypeHint hint = hints.reflection().getTypeHint(type);
		if (hint == null) {
			return Set.of();
		}
		return hint.methods()
			.filter((method) -> method.getMode() == ExecutableMode.INVOKE)
			.map(ExecutableHint::getName)
			.collect(Collectors.toSet());
	}

	@Test
	void registersEveryLockableMethodOfTheBeansForInvocation() throws Exception {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerBeanDefinition("jobs", new RootBeanDefinition(Jobs.class));
		beanFactory.registerBeanDefinition("plain", new RootBeanDefinition(Plain.class));
		RuntimeHints hints = process(beanFactory);
		assertThat(invocableMethods(hints, Jobs.class)).contains("report", "archive").doesNotContain("unlocked");
		assertThat(RuntimeHintsPredicates.reflection().onType(Plain.class)).rejects(hints);
	}

	@Test
	void contributesNothingWithoutLockableMethods() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerBeanDefinition("plain", new RootBeanDefinition(Plain.class));
		assertThat(new LockableMethodsAotProcessor().processAheadOfTime(beanFactory)).isNull();
	}

	@Test
	void isRegisteredInAotFactories() {
		assertThat(AotServices.factories().load(BeanFactoryInitializationAotProcessor.class))
			.hasAtLeastOneElementOfType(LockableMethodsAotProcessor.class);
	}

	private static RuntimeHints process(DefaultListableBeanFactory beanFactory) {
		BeanFactoryInitializationAotContribution contribution = new LockableMethodsAotProcessor()
			.processAheadOfTime(beanFactory);
		DefaultGenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(LockableMethodsAotProcessorTests.class)), new InMemoryGeneratedFiles());
		contribution.applyTo(generationContext, mock(BeanFactoryInitializationCode.class));
		return generationContext.getRuntimeHints();
	}

	static class Jobs {

		@Lockable(key = "report")
		public void report() {
		}

		@Lockable(resolver = "project")
		public String archive(String projectId) {
			return projectId;
		}

		public void unlocked() {
		}

	}

	static class Plain {

		public void run() {
		}

	}

}
