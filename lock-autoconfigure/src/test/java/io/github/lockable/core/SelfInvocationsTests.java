package io.github.lockable.core;

import java.lang.reflect.Method;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.lockable.Lockable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which calls the bytecode check counts as calls on {@code this}, across the shapes javac
 * gives a method body: exception handlers, switches, two-slot arguments, a constructor.
 */
class SelfInvocationsTests {

	@Test
	void countsCallsOnThisOnly() throws Exception {
		List<Method> lockable = List.of(Shapes.class.getMethod("locked"),
				Shapes.class.getMethod("compute", long.class, double.class, int.class));
		assertThat(SelfInvocations.find(Shapes.class, lockable)).hasSize(4)
			.anySatisfy((warning) -> assertThat(warning).startsWith("the constructor of SelfInvocationsTests.Shapes "
					+ "calls the @Lockable method SelfInvocationsTests.Shapes.locked()"))
			.anySatisfy((warning) -> assertThat(warning).startsWith("SelfInvocationsTests.Shapes.inTry() calls the "
					+ "@Lockable method SelfInvocationsTests.Shapes.locked()"))
			.anySatisfy((warning) -> assertThat(warning).startsWith("SelfInvocationsTests.Shapes.inHandler() calls "
					+ "the @Lockable method SelfInvocationsTests.Shapes.locked()"))
			.anySatisfy((warning) -> assertThat(warning).startsWith("SelfInvocationsTests.Shapes.afterSwitch(int) "
					+ "calls the @Lockable method SelfInvocationsTests.Shapes.compute(long, double, int)"))
			.noneMatch((warning) -> warning.contains("onOthers"));
	}

	@Test
	void aClassWithoutLockableMethodsIsNotRead() {
		assertThat(SelfInvocations.find(Shapes.class, List.of())).isEmpty();
	}

	static class Shapes {

		private final Shapes other;

		Shapes(Shapes other) {
			this.other = other;
			locked();
		}

		@Lockable(key = "locked")
		public void locked() {
		}

		@Lockable(key = "compute")
		public long compute(long a, double b, int c) {
			return a;
		}

		public void inTry() {
			try {
				locked();
			}
			catch (RuntimeException ex) {
				this.other.locked();
			}
		}

		public void inHandler() {
			try {
				this.other.locked();
			}
			catch (RuntimeException ex) {
				locked();
			}
		}

		public void afterSwitch(int x) {
			switch (x) {
				case 1 -> this.other.locked();
				case 2 -> this.other.compute(1L, 2.0, 3);
				default -> {
				}
			}
			compute(x, x * 2.0, (x > 0) ? x : -x);
		}

		public long onOthers() {
			long sum = this.other.compute(hashCode(), 2.0 * hashCode(), hashCode());
			this.other.locked();
			return sum + this.other.compute(sum + 1, (sum > 0) ? 1.0 : 0.0, (int) sum) - 1;
		}

	}

}
