package io.github.lockable.test.kit;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.lockable.HeldLock;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockTemplate;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.LockEvent;
import io.github.lockable.test.LockEvent.Outcome;
import io.github.lockable.test.LockableTestKit;
import io.github.lockable.test.kit.KitApplication.NightlyReport;
import io.github.lockable.test.kit.KitApplication.ProjectController;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The test kit in a {@code @SpringBootTest} that sets no store: the memory store, although
 * the application's own configuration names Redis (on a port where nothing listens), the
 * kit's held key answered over real HTTP, a skipped job, {@code LockTemplate}, the events,
 * and the reset after each test method.
 */
@SpringBootTest(classes = KitApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "spring.config.import=classpath:io/github/lockable/test/kit/production.properties")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LockableTestKitTests {

	private static final String LEFT_HELD = "project:" + UUID.randomUUID();

	@RegisterExtension
	final LocalHttp http = new LocalHttp();

	@Autowired
	LockableTestKit kit;

	@Autowired
	LockStore store;

	@Autowired
	LockTemplate template;

	@Autowired
	ProjectController projects;

	@Autowired
	NightlyReport report;

	@Test
	void usesTheMemoryStoreOverTheApplicationsConfiguration() {
		assertThat(this.store).isInstanceOf(MemoryLockStore.class);
	}

	@Test
	void aHeldKeyAnswersTheConflictAndIsNoEvent() throws Exception {
		UUID project = UUID.randomUUID();
		try (HeldLock held = this.kit.hold("project:" + project)) {
			assertThat(held.isHeld()).isTrue();
			assertThat(held.keys()).containsExactly("project:" + project);
			HttpResponse<String> refused = this.http.post("/projects/" + project + "/archive");
			assertThat(refused.statusCode()).isEqualTo(409);
			assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(this.projects.archived()).isZero();
		}
		assertThat(this.http.post("/projects/" + project + "/archive").statusCode()).isEqualTo(200);
		assertThat(this.projects.archived()).isOne();
		String method = "KitApplication.ProjectController.archive(UUID)";
		assertThat(this.kit.events()).containsExactly(new LockEvent("project:" + project, method, Outcome.REFUSED),
				new LockEvent("project:" + project, method, Outcome.ACQUIRED),
				new LockEvent("project:" + project, method, Outcome.RELEASED));
	}

	@Test
	void aSkipJobSkipsAHeldKey() {
		int before = this.report.runs();
		try (HeldLock held = this.kit.hold("nightly-report")) {
			this.report.run();
		}
		assertThat(this.report.runs()).isEqualTo(before);
		assertThat(this.kit.events())
			.containsExactly(new LockEvent("nightly-report", "KitApplication.NightlyReport.run()", Outcome.SKIPPED));
	}

	@Test
	void lockTemplateCallsAreEventsToo() {
		try (HeldLock held = this.kit.hold("imports:42")) {
			assertThat(this.template.tryLock("imports:42", Duration.ofSeconds(10))).isEmpty();
		}
		this.template.tryLock("imports:42", Duration.ofSeconds(10)).ifPresent(HeldLock::close);
		assertThat(this.kit.events()).extracting(LockEvent::outcome)
			.containsExactly(Outcome.REFUSED, Outcome.ACQUIRED, Outcome.RELEASED);
		assertThat(this.kit.events()).allSatisfy((event) -> {
			assertThat(event.key()).isEqualTo("imports:42");
			assertThat(event.method()).isEqualTo("LockTemplate");
		});
	}

	@Test
	void aLockTheResetTookAwayIsLostAtItsRelease() {
		HeldLock lock = this.template.tryLock("imports:7", Duration.ofSeconds(10)).orElseThrow();
		this.kit.reset();
		assertThat(this.kit.events()).isEmpty();
		Optional<HeldLock> next = this.template.tryLock("imports:7", Duration.ofSeconds(10));
		assertThat(next).isPresent();
		next.get().close();
		lock.close();
		assertThat(this.kit.events()).extracting(LockEvent::outcome)
			.containsExactly(Outcome.ACQUIRED, Outcome.RELEASED, Outcome.LOST);
	}

	@Test
	void aKeyIsHeldOnceAndObeysTheKeyRules() {
		try (HeldLock held = this.kit.hold("exports:1")) {
			assertThatIllegalStateException().isThrownBy(() -> this.kit.hold("exports:1"))
				.withMessageContaining("held already");
		}
		this.kit.hold("exports:1").close();
		assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> this.kit.hold("bad key/../x"));
	}

	@Test
	@Order(1)
	void leavesALockAndEventsBehind() {
		this.kit.hold(LEFT_HELD);
		this.template.tryLock("left:behind", Duration.ofMinutes(5));
		assertThat(this.kit.events()).isNotEmpty();
	}

	@Test
	@Order(2)
	void findsThemResetByTheListener() {
		assertThat(this.kit.events()).isEmpty();
		try (HeldLock held = this.kit.hold(LEFT_HELD)) {
			assertThat(held.isHeld()).isTrue();
		}
		assertThat(this.template.tryLock("left:behind", Duration.ofSeconds(10))).isPresent().get().satisfies(HeldLock::close);
	}

}
