package io.github.lockable.core;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.github.lockable.Lockable;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the attribute source finds {@code @Lockable}: the shapes of a call that the
 * pointcut, the startup check and the ahead-of-time hints all rely on.
 */
class LockableAttributeSourceTests {

	private final LockableAttributeSource attributes = new LockableAttributeSource();

	@Test
	void findsTheAnnotationOfAnInterfaceMethodOnTheImplementation() throws Exception {
		Method declared = Reports.class.getMethod("report");
		Method implemented = AnnotatedInterface.class.getMethod("report");
		assertThat(this.attributes.find(declared, AnnotatedInterface.class)).isNotNull();
		assertThat(this.attributes.find(implemented, AnnotatedInterface.class)).isNotNull();
		assertThat(this.attributes.methodsOf(AnnotatedInterface.class)).containsOnlyKeys(implemented);
	}

	@Test
	void findsTheAnnotationOfTheImplementationWhenTheCallNamesTheInterfaceMethod() throws Exception {
		Method declared = Reports.class.getMethod("report");
		assertThat(this.attributes.find(declared, AnnotatedImplementation.class).key()).isEqualTo("implementation");
		assertThat(this.attributes.find(declared, null)).isNull();
	}

	@Test
	void aJdkProxyMatchesThroughTheInterfaceMethodOnly() throws Exception {
		ProxyFactory factory = new ProxyFactory(new AnnotatedImplementation());
		factory.addInterface(Reports.class);
		Class<?> proxyClass = factory.getProxy().getClass();
		assertThat(new LockablePointcut(this.attributes).getMethodMatcher()
			.matches(Reports.class.getMethod("report"), proxyClass)).isFalse();
		assertThat(new LockablePointcut(this.attributes).getMethodMatcher()
			.matches(Reports.class.getMethod("report"), AnnotatedImplementation.class)).isTrue();
	}

	@Test
	void resolvesTheBridgeOfAGenericMethodToTheMethodItBridges() throws Exception {
		Method bridge = TextHandler.class.getMethod("handle", Object.class);
		Method bridged = TextHandler.class.getMethod("handle", String.class);
		assertThat(bridge.isBridge()).isTrue();
		assertThat(this.attributes.find(bridge, TextHandler.class)).isNotNull();
		assertThat(LockableAttributeSource.specificMethod(bridge, TextHandler.class)).isEqualTo(bridged);
		assertThat(this.attributes.methodsOf(TextHandler.class)).containsOnlyKeys(bridged);
	}

	@Test
	void objectMethodsAreNeverLocked() throws Exception {
		assertThat(this.attributes.find(Object.class.getMethod("toString"), AnnotatedInterface.class)).isNull();
	}

	@Test
	void listsOneBeanPerClassAndNoneWithoutLockableMethods() {
		DefaultListableBeanFactory factory = new DefaultListableBeanFactory();
		factory.registerBeanDefinition("first", new RootBeanDefinition(AnnotatedImplementation.class));
		factory.registerBeanDefinition("second", new RootBeanDefinition(AnnotatedImplementation.class));
		factory.registerBeanDefinition("plain", new RootBeanDefinition(Plain.class));
		assertThat(this.attributes.beans(factory)).singleElement()
			.satisfies((bean) -> assertThat(bean.name()).isEqualTo("first"))
			.satisfies((bean) -> assertThat(bean.userClass()).isEqualTo(AnnotatedImplementation.class));
	}

	@Test
	void createsNoFactoryBeanToLearnItsProductAheadOfTime() {
		DefaultListableBeanFactory factory = new DefaultListableBeanFactory();
		factory.registerBeanDefinition("untyped", new RootBeanDefinition(UntypedFactoryBean.class));
		int created = UntypedFactoryBean.created.get();
		assertThat(this.attributes.beans(factory)).isEmpty();
		assertThat(UntypedFactoryBean.created).hasValue(created);
	}

	interface Reports {

		void report();

	}

	interface AnnotatedReports {

		@Lockable(key = "interface")
		void report();

	}

	static class AnnotatedInterface implements AnnotatedReports, Reports {

		@Override
		public void report() {
		}

	}

	static class AnnotatedImplementation implements Reports {

		@Override
		@Lockable(key = "implementation")
		public void report() {
		}

	}

	interface Handler<T> {

		void handle(T value);

	}

	static class TextHandler implements Handler<String> {

		@Override
		@Lockable(key = "text")
		public void handle(String value) {
		}

	}

	static class Plain {

		public void run() {
		}

	}

	@SuppressWarnings("rawtypes")
	static class UntypedFactoryBean implements FactoryBean {

		static final AtomicInteger created = new AtomicInteger();

		UntypedFactoryBean() {
			created.incrementAndGet();
		}

		@Override
		public Object getObject() {
			return new AnnotatedImplementation();
		}

		@Override
		public Class<?> getObjectType() {
			return AnnotatedImplementation.class;
		}

	}

}
