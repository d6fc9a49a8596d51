package io.github.lockable.test.kit;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockInvocation;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.Lockable;
import io.github.lockable.test.app.ApplicationWithoutSecurity;

import org.springframework.context.annotation.ComponentScan;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application the test kit's tests run: an endpoint that answers 409 when its
 * project's lock is taken, the resolver it names, and a job that skips a held lock. Its
 * beans are scanned, so that a {@code @WebMvcTest} slice sees the controller only.
 */
@ApplicationWithoutSecurity
@ComponentScan
public class KitApplication {

	@RestController
	public static class ProjectController {

		private final AtomicInteger archived = new AtomicInteger();

		@PostMapping("/projects/{projectId}/archive")
		@Lockable(resolver = "project", ttl = "10s", conflictPolicy = ConflictPolicy.CONFLICT)
		public String archive(@PathVariable UUID projectId) {
			this.archived.incrementAndGet();
			return "archived";
		}

		public int archived() {
			return this.archived.get();
		}

	}

	@Component("project")
	public static class ProjectKeyResolver implements LockKeyResolver {

		@Override
		public String resolve(LockInvocation invocation) {
			return "project:" + invocation.argument("projectId", UUID.class);
		}

	}

	@Component
	public static class NightlyReport {

		private final AtomicInteger runs = new AtomicInteger();

		@Lockable(key = "nightly-report", ttl = "10s", conflictPolicy = ConflictPolicy.SKIP)
		public void run() {
			this.runs.incrementAndGet();
		}

		public int runs() {
			return this.runs.get();
		}

	}

}
