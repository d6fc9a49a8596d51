package io.github.lockable.autoconfigure;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.LockInvocation;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.Lockable;
import io.github.lockable.LockableConfigurationException;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A resolver that reads arguments by name, on a method whose class was compiled without
 * {@code -parameters}, fails the start naming the method and the build's fix. The project
 * compiles its tests with {@code -parameters}, so the service is compiled here without.
 */
class ParameterNamesStartupTests {

	private static final String SERVICE = """
			package compiled;

			import io.github.lockable.Lockable;

			public class ProjectService {

				@Lockable(resolver = "project")
				public String rename(String projectId, String name) {
					return projectId + "=" + name;
				}

			}
			""";

	@TempDir
	static Path classes;

	private static ClassLoader loader;

	private static Class<?> service;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockableAutoConfiguration.class))
		.withPropertyValues("lockable.store=memory");

	@BeforeAll
	static void compileWithoutParameterNames() throws IOException, URISyntaxException, ReflectiveOperationException {
		Path source = classes.resolve("src/compiled/ProjectService.java");
		Files.createDirectories(source.getParent());
		Files.writeString(source, SERVICE);
		String lockCore = Path.of(Lockable.class.getProtectionDomain().getCodeSource().getLocation().toURI())
			.toString();
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		// -g, as Maven compiles by default: debug information does not give Spring the names.
		int exit = javac.run(null, null, null, "--release", "17", "-g", "-proc:none", "-classpath", lockCore, "-d",
				classes.toString(), source.toString());
		assertThat(exit).as("javac exit code").isZero();
		loader = new URLClassLoader(new URL[] { classes.toUri().toURL() },
				ParameterNamesStartupTests.class.getClassLoader());
		service = loader.loadClass("compiled.ProjectService");
		Method rename = service.getMethod("rename", String.class, String.class);
		assertThat(rename.getParameters()[0].isNamePresent()).as("compiled without -parameters").isFalse();
	}

	@Test
	void aResolverReadingByNameFailsTheStartNamingTheMethodAndTheFixes() {
		this.runner.withClassLoader(loader)
			.withUserConfiguration(ByName.class)
			.withBean("projectService", service)
			.run((context) -> {
				Throwable failure = context.getStartupFailure();
				assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
					.isInstanceOf(LockableConfigurationException.class);
				FailureAnalysis analysis = new LockableConfigurationFailureAnalyzer().analyze(failure);
				assertThat(analysis.getDescription()).contains("    - ProjectService.rename(String, String): resolver "
						+ "'project' reads arguments by name (LockInvocation.argument), but ProjectService was "
						+ "compiled without parameter names (-parameters)");
				assertThat(analysis.getAction()).contains("compile with -parameters")
					.contains("inherit spring-boot-starter-parent, which sets it")
					.contains("without the parent, set <parameters>true</parameters> in maven-compiler-plugin's "
							+ "<configuration>")
					.contains("options.compilerArgs << '-parameters'")
					.contains("Spring Boot plugin, which sets it")
					.contains("arguments()");
			});
	}

	@Test
	void aResolverReadingByPositionStartsAndLocks() {
		this.runner.withClassLoader(loader)
			.withUserConfiguration(ByPosition.class)
			.withBean("projectService", service)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Object bean = context.getBean("projectService");
				assertThat(bean.getClass()).isNotEqualTo(service);
				assertThat(rename(bean)).isEqualTo("p1=new");
			});
	}

	@Test
	void aResolverThatDelegatesIsNotSeenAndItsCallSaysTheFix() {
		this.runner.withClassLoader(loader)
			.withUserConfiguration(ByDelegation.class)
			.withBean("projectService", service)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Object bean = context.getBean("projectService");
				assertThatExceptionOfType(InvocationTargetException.class).isThrownBy(() -> rename(bean))
					.havingCause()
					.isInstanceOf(IllegalArgumentException.class)
					.withMessageContaining("Parameter names of ProjectService.rename(String, String) are not in its "
							+ "class file; to use argument(\"projectId\", ...), compile with -parameters")
					.withMessageContaining("spring-boot-starter-parent")
					.withMessageContaining("options.compilerArgs << '-parameters'");
			});
	}

	private static Object rename(Object bean) throws ReflectiveOperationException {
		return bean.getClass().getMethod("rename", String.class, String.class).invoke(bean, "p1", "new");
	}

	@Configuration(proxyBeanMethods = false)
	static class ByName {

		@Bean
		LockKeyResolver project() {
			return (invocation) -> "project:" + invocation.argument("projectId", String.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ByPosition {

		@Bean
		LockKeyResolver project() {
			return (invocation) -> "project:" + invocation.arguments().get(0);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ByDelegation {

		@Bean
		LockKeyResolver project() {
			return Keys::project;
		}

	}

	static final class Keys {

		static String project(LockInvocation invocation) {
			return "project:" + invocation.argument("projectId", String.class);
		}

	}

}
