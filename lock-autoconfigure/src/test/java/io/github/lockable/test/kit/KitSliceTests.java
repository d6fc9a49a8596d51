package io.github.lockable.test.kit;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.github.lockable.HeldLock;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.AutoConfigureLockable;
import io.github.lockable.test.LockEvent;
import io.github.lockable.test.LockableTestKit;
import io.github.lockable.test.kit.KitApplication.ProjectKeyResolver;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A controller slice with {@link AutoConfigureLockable}: the slice's controller answers 409
 * with the problem body while the kit holds its key, on the memory store, with no Redis.
 * Each Boot line's subclass (under {@code src/test/boot3} and {@code boot4}) names its
 * {@code @WebMvcTest}, whose package differs.
 */
@AutoConfigureLockable
@Import(ProjectKeyResolver.class)
abstract class KitSliceTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	LockableTestKit kit;

	@Autowired
	LockStore store;

	@Test
	void theSliceAnswersTheConflictWhileTheKitHoldsTheKey() throws Exception {
		assertThat(this.store).isInstanceOf(MemoryLockStore.class);
		UUID project = UUID.randomUUID();
		try (HeldLock held = this.kit.hold("project:" + project)) {
			this.mvc.perform(post("/projects/{projectId}/archive", project))
				.andExpect(status().isConflict())
				.andExpect(content().contentType("application/problem+json"))
				.andExpect(jsonPath("$.type").value("urn:lockable:problem:lock-conflict"))
				.andExpect(header().exists("Retry-After"));
		}
		this.mvc.perform(post("/projects/{projectId}/archive", project))
			.andExpect(status().isOk())
			.andExpect(content().string("archived"));
		assertThat(this.kit.events()).extracting(LockEvent::outcome)
			.containsExactly(LockEvent.Outcome.REFUSED, LockEvent.Outcome.ACQUIRED, LockEvent.Outcome.RELEASED);
	}

}
