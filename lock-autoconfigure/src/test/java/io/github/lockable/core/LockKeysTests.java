package io.github.lockable.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LockKeysTests {

	private final LockKeys keys = new LockKeys("app.prod", 10);

	@Test
	void fullKeyIsPrefixColonPart() {
		assertThat(this.keys.fullKey("project:42")).isEqualTo("app.prod:project:42");
	}

	@Test
	void everyAllowedCharacterPasses() {
		LockKeys wide = new LockKeys("p", 100);
		assertThat(wide.problem("AZaz09:._-")).isNull();
	}

	@Test
	void problemsNeverRepeatThePart() {
		assertThat(this.keys.problem(null)).isEqualTo("is null");
		assertThat(this.keys.problem("")).isEqualTo("is empty");
		assertThat(this.keys.problem("12345678901")).isEqualTo("is 11 characters long, more than the 10 allowed");
		for (String bad : new String[] { "a b", "a/b", "../x", "a\u0000b", "{tag}", "é", "a*", "a\nb", "a%b" }) {
			assertThat(this.keys.problem(bad)).as(bad).isEqualTo("has a character outside A-Z a-z 0-9 : . _ -");
		}
	}

	@Test
	void invalidPartIsRefusedWithoutEchoingIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.keys.fullKey("secret va"))
			.withMessage("key has a character outside A-Z a-z 0-9 : . _ -");
	}

	@Test
	void prefixAndLengthAreChecked() {
		assertThatIllegalArgumentException().isThrownBy(() -> new LockKeys("bad prefix", 10))
			.withMessageContaining("key prefix has a character outside");
		assertThatIllegalArgumentException().isThrownBy(() -> new LockKeys("ok", 0))
			.withMessageContaining("max key length must be at least 1");
	}

}
