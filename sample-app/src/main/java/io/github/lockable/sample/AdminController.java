package io.github.lockable.sample;

import java.util.Map;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A global admin operation: one run at a time in the whole system (static key, 423 Locked).
 */
@RestController
class AdminController {

	private final SimulatedWork work;

	AdminController(SimulatedWork work) {
		this.work = work;
	}

	@PostMapping("/admin/rebuild-index")
	@Lockable(key = "admin:rebuild-index", ttl = "${sample.rebuild-index.ttl:60s}",
			conflictPolicy = ConflictPolicy.LOCKED)
	Map<String, String> rebuildIndex() {
		this.work.perform();
		return Map.of("status", "rebuilt");
	}

}
