package io.github.lockable.core;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.springframework.core.KotlinDetector;
import org.springframework.util.ClassUtils;

/**
 * How a locked method returns, which decides how long the lock is held and what a skipped
 * call returns.
 */
enum ReturnKind {

	/** Held until the method returns or throws; a skipped call returns null. */
	VALUE,

	/** Held until the method returns or throws; a skipped call returns {@code Optional.empty()}. */
	OPTIONAL,

	/** Held until the returned stage completes; a skipped call returns a completed future of null. */
	COMPLETION_STAGE,

	/**
	 * A {@code Mono}, or a Kotlin suspend function, which Spring's proxies run as a
	 * {@code Mono}: each subscription acquires, then runs the method, and holds the lock until
	 * the method's work ends; a skipped call is empty.
	 */
	MONO;

	static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			ReturnKind.class.getClassLoader());

	/** What Spring's AOP needs to run a suspend function as a Publisher. */
	static final boolean COROUTINES_REACTOR_PRESENT = REACTOR_PRESENT
			&& ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", ReturnKind.class.getClassLoader());

	static ReturnKind of(Method method) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			return COROUTINES_REACTOR_PRESENT ? MONO : VALUE;
		}
		return of(method.getReturnType());
	}

	private static ReturnKind of(Class<?> returnType) {
		if (returnType == Optional.class) {
			return OPTIONAL;
		}
		if (returnType == CompletableFuture.class || returnType == CompletionStage.class) {
			return COMPLETION_STAGE;
		}
		if (REACTOR_PRESENT && returnType == reactor.core.publisher.Mono.class) {
			return MONO;
		}
		return VALUE;
	}

}
