package io.github.lockable.autoconfigure;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers the auto-proxy creator that applies Lockable's advisor, as
 * {@code @EnableTransactionManagement} and {@code @EnableAsync} do. Without it a Lockable
 * application without AspectJ and without transaction management has no proxy at all under
 * {@code spring.aop.proxy-target-class=false} or {@code spring.aop.auto=false}, and every
 * {@code @Lockable} method runs unlocked. Spring escalates the creator to AspectJ's when
 * that one is registered too. {@code spring.aop.proxy-target-class} (Spring Boot's default
 * {@code true}) forces class proxies; {@code false} gives interface proxies to beans that
 * have interfaces.
 */
class LockableProxyRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

	private static final String PROXY_TARGET_CLASS = "spring.aop.proxy-target-class";

	private boolean proxyTargetClass = true;

	@Override
	public void setEnvironment(Environment environment) {
		this.proxyTargetClass = environment.getProperty(PROXY_TARGET_CLASS, Boolean.class, true);
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata, BeanDefinitionRegistry registry) {
		AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		if (this.proxyTargetClass) {
			AopConfigUtils.forceAutoProxyCreatorToUseClassProxying(registry);
		}
	}

}
