package io.github.lockable.sample;

import java.util.Map;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A per-user operation: one export per user at a time (resolver from the calling user,
 * 429 Too Many Requests).
 */
@RestController
class ExportController {

	private final SimulatedWork work;

	ExportController(SimulatedWork work) {
		this.work = work;
	}

	@PostMapping("/me/exports")
	@Lockable(resolver = "currentUser", ttl = "30s", conflictPolicy = ConflictPolicy.TOO_MANY_REQUESTS)
	Map<String, String> export() {
		this.work.perform();
		return Map.of("status", "exported");
	}

}
