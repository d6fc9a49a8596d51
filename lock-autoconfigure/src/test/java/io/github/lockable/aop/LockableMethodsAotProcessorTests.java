package io.github.lockable.aop;

import org.junit.jupiter.api.Test;

import io.github.lockable.Lockable;

import org.springframework.aot.hint.RuntimeHints;
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

	@Test
	void registersEveryLockableMethodOfTheBeansForInvocation() throws Exception {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerBeanDefinition("jobs", new RootBeanDefinition(Jobs.class));
		beanFactory.registerBeanDefinition("plain", new RootBeanDefinition(Plain.class));
		RuntimeHints hints = process(beanFactory);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(Jobs.class, "report").invoke()).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(Jobs.class, "archive").invoke()).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(Jobs.class, "unlocked").invoke()).rejects(hints);
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
