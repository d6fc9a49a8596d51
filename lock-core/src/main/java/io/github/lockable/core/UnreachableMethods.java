package io.github.lockable.core;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aop.framework.ProxyConfig;
import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The {@code @Lockable} methods that no proxy intercepts ({@code private}, {@code static},
 * or {@code final} behind a class proxy), which would run without the lock.
 */
final class UnreachableMethods {

	private UnreachableMethods() {
	}

	/**
	 * Whether the bean's calls pass an interface (JDK) proxy, which also intercepts a final
	 * method that implements an interface method. The bean's proxy decides when it exists;
	 * for a bean not created yet, the auto-proxy creator's mode and the bean's interfaces.
	 */
	static boolean isInterfaceProxied(ConfigurableListableBeanFactory factory, String beanName,
			Class<?> userClass) {
		Object bean = factory.containsSingleton(beanName) ? factory.getSingleton(beanName) : null;
		if (bean != null && AopUtils.isAopProxy(bean)) {
			return AopUtils.isJdkDynamicProxy(bean);
		}
		Object creator = factory.containsSingleton(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME)
				? factory.getSingleton(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME) : null;
		return creator instanceof ProxyConfig config && !config.isProxyTargetClass()
				&& !(factory.containsBeanDefinition(beanName) && AutoProxyUtils.shouldProxyTargetClass(factory, beanName))
				&& ClassUtils.getAllInterfacesForClass(userClass).length > 0;
	}

	/**
	 * Why no proxy intercepts calls of the method, so that it would run unlocked; or
	 * {@code null} when the proxy does.
	 */
	static @Nullable String why(Method method, boolean interfaceProxy) {
		int modifiers = method.getModifiers();
		if (Modifier.isStatic(modifiers)) {
			return "is static, and no proxy intercepts a static method, so it would run without the lock; make it an "
					+ "instance method and call it through the bean";
		}
		if (Modifier.isPrivate(modifiers)) {
			return "is private, and no proxy intercepts a private method, so it would run without the lock; make it "
					+ "public and call it through the bean";
		}
		if (Modifier.isFinal(modifiers) && !interfaceProxy) {
			return "is final, and a class (CGLIB) proxy cannot override a final method, so it would run without the "
					+ "lock; remove final (in Kotlin: make it open)";
		}
		return null;
	}

}
