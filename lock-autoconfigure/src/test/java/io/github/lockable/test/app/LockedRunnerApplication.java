package io.github.lockable.test.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;

import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A batch application run as a separate process by {@link LockedRunnerProcessTests}: its
 * one runner is a {@code @Lockable} job on the file store. Prints {@code job: started}
 * when the job runs (and holds the lock until the file named by the second argument
 * exists), {@code job: skipped} when another process holds it.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ AopAutoConfiguration.class, LockableAutoConfiguration.class })
public class LockedRunnerApplication {

	static final AtomicBoolean ran = new AtomicBoolean();

	public static void main(String[] args) {
		Path lockDirectory = Path.of(args[0]);
		Path finish = Path.of(args[1]);
		new SpringApplicationBuilder(LockedRunnerApplication.class).web(WebApplicationType.NONE)
			.properties("lockable.store=file", "lockable.file.directory=" + lockDirectory, "job.finish=" + finish,
					"spring.main.banner-mode=off")
			.run(args)
			.close();
		if (!ran.get()) {
			System.out.println("job: skipped");
		}
	}

	@Bean
	NightlyJob nightlyJob(org.springframework.core.env.Environment environment) {
		return new NightlyJob(Path.of(environment.getRequiredProperty("job.finish")));
	}

	static class NightlyJob implements CommandLineRunner {

		private final Path finish;

		NightlyJob(Path finish) {
			this.finish = finish;
		}

		@Override
		@Lockable(key = "nightly-report", ttl = "1m", conflictPolicy = ConflictPolicy.SKIP)
		public void run(String... args) throws InterruptedException {
			ran.set(true);
			System.out.println("job: started");
			long deadline = System.nanoTime() + 60_000_000_000L;
			while (!Files.exists(this.finish) && System.nanoTime() < deadline) {
				Thread.sleep(20);
			}
			System.out.println("job: finished");
		}

	}

}
