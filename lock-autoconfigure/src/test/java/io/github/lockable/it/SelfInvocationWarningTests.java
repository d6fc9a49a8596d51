package io.github.lockable.it;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.Lockable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bean that calls its own {@code @Lockable} method on {@code this} bypasses the proxy: the
 * startup log says so, once per caller and callee, and says nothing of calls that pass a
 * proxy.
 */
@ExtendWith(OutputCaptureExtension.class)
class SelfInvocationWarningTests {

	@Test
	void startupWarnsOfEveryCallOnThisAndOfNothingElse(CapturedOutput output) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SelfCallingApplication.class)
			.web(WebApplicationType.NONE)
			.properties("lockable.store=memory", "spring.main.banner-mode=off", "spring.jmx.enabled=false")
			.run()) {
			assertThat(context.getBean(SelfCaller.class)).isNotNull();
		}
		List<String> warnings = output.getAll()
			.lines()
			.filter((line) -> line.contains(" WARN ") && line.contains("calls the @Lockable method"))
			.toList();
		assertThat(warnings).hasSize(5);
		assertThat(warnings).filteredOn((line) -> line.contains("SelfCaller.caller() calls the @Lockable method "
				+ "SelfInvocationWarningTests.SelfCaller.locked() on this, so that call does not pass the proxy and runs "
				+ "without the lock. Call it through the bean (inject SelfInvocationWarningTests.SelfCaller lazily, "
				+ "with @Lazy or an ObjectProvider), move locked to another bean, or take the lock with LockTemplate"))
			.hasSize(1);
		assertThat(warnings)
			.filteredOn((line) -> line.contains("SelfCaller.later (in a lambda) calls the @Lockable method "
					+ "SelfInvocationWarningTests.SelfCaller.locked()"))
			.hasSize(1);
		assertThat(warnings)
			.filteredOn((line) -> line.contains("SelfCaller.reference() calls the @Lockable method "
					+ "SelfInvocationWarningTests.SelfCaller.locked()"))
			.hasSize(1);
		assertThat(warnings)
			.filteredOn((line) -> line.contains("SelfCaller.withArguments(String) calls the @Lockable method "
					+ "SelfInvocationWarningTests.SelfCaller.update(String, long, String[])"))
			.hasSize(1);
		assertThat(warnings)
			.filteredOn((line) -> line.contains("SelfInvocationWarningTests.Template.run() calls the @Lockable method "
					+ "SelfInvocationWarningTests.Worker.work()"))
			.hasSize(1);
		assertThat(warnings).noneMatch((line) -> line.contains("OtherCaller") || line.contains("SelfInjected")
				|| line.contains("onAnotherInstance") || line.contains("onAPeer"));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class SelfCallingApplication {

		@Bean
		SelfCaller selfCaller() {
			return new SelfCaller();
		}

		@Bean
		Worker worker() {
			return new Worker();
		}

		@Bean
		Target target() {
			return new Target();
		}

		@Bean
		OtherCaller otherCaller(Target target) {
			return new OtherCaller(target);
		}

		@Bean
		SelfInjected selfInjected(ObjectProvider<SelfInjected> self) {
			return new SelfInjected(self);
		}

	}

	public static class SelfCaller {

		private SelfCaller peer = this;

		private String name = "self";

		@Lockable(key = "self")
		public void locked() {
		}

		@Lockable(key = "update")
		public void update(String name, long version, String... tags) {
		}

		public void caller() {
			locked();
			this.locked();
		}

		public Runnable later() {
			return () -> locked();
		}

		public Runnable reference() {
			return this::locked;
		}

		public void withArguments(String suffix) {
			update(this.name + suffix, (suffix.isEmpty() ? 1L : 2L), this.name, suffix);
		}

		public void onAnotherInstance(SelfCaller other) {
			other.locked();
			other.update(this.name, 3L);
		}

		public void onAPeer() {
			this.peer.update(describe(), hashCode(), describe());
			this.peer.locked();
		}

		private String describe() {
			return this.name;
		}

	}

	public abstract static class Template {

		public void run() {
			work();
		}

		protected abstract void work();

	}

	public static class Worker extends Template {

		@Override
		@Lockable(key = "work")
		public void work() {
		}

	}

	public static class Target {

		@Lockable(key = "target")
		public void locked() {
		}

	}

	public static class OtherCaller {

		private final Target target;

		OtherCaller(Target target) {
			this.target = target;
		}

		public void call() {
			this.target.locked();
		}

	}

	public static class SelfInjected {

		private final ObjectProvider<SelfInjected> self;

		SelfInjected(ObjectProvider<SelfInjected> self) {
			this.self = self;
		}

		@Lockable(key = "injected")
		public void locked() {
		}

		public void caller() {
			this.self.getObject().locked();
		}

	}

}
