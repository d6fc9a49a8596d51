package io.github.lockable.core;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import io.github.lockable.test.HostileKeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The key rule over generated resolver outputs: a part is accepted exactly when it obeys
 * the design's rule, an accepted part stays inside the prefix, and a refusal never repeats
 * the part.
 */
class LockKeysPropertyTests {

	private static final int MAX = 200;

	private final LockKeys keys = new LockKeys("lock", MAX);

	@Provide
	Arbitrary<String> resolverOutputs() {
		return HostileKeys.resolverOutputs();
	}

	@Property(tries = 10_000)
	void partIsAcceptedExactlyWhenItObeysTheRule(@ForAll("resolverOutputs") String part) {
		String problem = this.keys.problem(part);
		assertThat(problem == null).as("accepted").isEqualTo(HostileKeys.obeysTheRule(part, MAX));
		if (problem != null) {
			assertThat(problem).matches(HostileKeys.problems(MAX));
			assertThatIllegalArgumentException().isThrownBy(() -> this.keys.fullKey(part))
				.withMessage("key " + problem);
			return;
		}
		String fullKey = this.keys.fullKey(part);
		// Inside the prefix: "lock:" then the part itself, no character Redis reads as a
		// hash tag ({ }), a glob (* ? [ ] \) or a separator of its protocol (spaces, line breaks).
		assertThat(fullKey).isEqualTo("lock:" + part).startsWith("lock:");
		assertThat(this.keys.withoutPrefix(fullKey)).isEqualTo(part);
		assertThat(fullKey).doesNotContainAnyWhitespaces().containsPattern("^[A-Za-z0-9:._-]+$");
	}

}
