package io.github.lockable.core;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

import io.github.lockable.ConflictPolicy;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * The return types a lock can be held across: a stream would hold it for its whole life, an
 * asynchronous type other than {@code CompletableFuture}, {@code CompletionStage} and
 * {@code Mono} would release it too early, and a {@code SKIP} method needs a value for a
 * skipped call.
 */
final class ReturnTypeRules {

	private static final String[] STREAMING_TYPES = { "org.reactivestreams.Publisher",
			"org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter",
			"org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody",
			"kotlinx.coroutines.flow.Flow" };

	private ReturnTypeRules() {
	}

	/**
	 * Adds a problem for every rule the method's return type breaks.
	 * @param method the method
	 * @param policy its conflict policy, defaults applied
	 * @param description the method as the problems name it
	 * @param problems where the problems go
	 */
	static void check(Method method, ConflictPolicy policy, String description, List<String> problems) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			checkSuspendingFunction(method, policy, description, problems);
			return;
		}
		Class<?> returnType = method.getReturnType();
		String streaming = streamingType(method);
		if (streaming != null) {
			problems.add(description + ": returns " + streaming + ", a stream that would hold the lock for its "
					+ "whole life; lock the short command that starts the stream in a service method (or return a Mono) "
					+ "and keep the stream itself outside the lock");
		}
		else if (Future.class.isAssignableFrom(returnType) && returnType != CompletableFuture.class
				|| CompletionStage.class.isAssignableFrom(returnType) && returnType != CompletionStage.class
						&& returnType != CompletableFuture.class) {
			problems.add(description + ": returns " + returnType.getName() + "; a lock is held across asynchronous "
					+ "work only for CompletableFuture, CompletionStage and Mono: declare one of those");
		}
		if (policy == ConflictPolicy.SKIP && returnType.isPrimitive() && returnType != void.class) {
			problems.add(description + ": conflictPolicy SKIP needs a return value for a skipped call, but the "
					+ "method returns " + returnType.getName() + "; return void, a wrapper type or Optional, or choose "
					+ "another policy");
		}
	}

	/**
	 * Spring's proxies run a suspend function as a Mono, which needs
	 * kotlinx-coroutines-reactor; its declared Java return type is Object, so its Kotlin
	 * return type decides.
	 */
	private static void checkSuspendingFunction(Method method, ConflictPolicy policy, String description,
			List<String> problems) {
		MethodParameter returned = new MethodParameter(method, -1);
		Class<?> returnType = returned.getParameterType();
		if (isStreaming(returnType)) {
			problems.add(description + ": is a suspend function returning " + returnType.getName()
					+ ", a stream that would hold the lock for its whole life; lock a suspend function that returns "
					+ "a single value and keep the stream outside the lock");
		}
		else if (!ReturnKind.COROUTINES_REACTOR_PRESENT) {
			problems.add(description + ": is a suspend function; holding a lock across it needs "
					+ "org.jetbrains.kotlinx:kotlinx-coroutines-reactor on the class path");
		}
		else if (policy == ConflictPolicy.SKIP && !returned.isOptional() && returnType != void.class
				&& !returnType.getName().equals("kotlin.Unit")) {
			problems.add(description + ": conflictPolicy SKIP returns null for a skipped call, but the suspend "
					+ "function returns the non-null type " + returnType.getName() + "; make it nullable, return Unit, "
					+ "or choose another policy");
		}
	}

	private static @Nullable String streamingType(Method method) {
		Class<?> returnType = method.getReturnType();
		if (ReturnKind.of(method) == ReturnKind.MONO) {
			return null;
		}
		if (isStreaming(returnType)) {
			return returnType.getName();
		}
		if (returnType.getName().equals("org.springframework.http.ResponseEntity")) {
			Class<?> body = ResolvableType.forMethodReturnType(method).getGeneric(0).resolve();
			if (body != null && isStreaming(body)) {
				return "ResponseEntity<" + body.getName() + ">";
			}
		}
		return null;
	}

	private static boolean isStreaming(Class<?> type) {
		for (String streamingType : STREAMING_TYPES) {
			Class<?> candidate = loadIfPresent(streamingType, type.getClassLoader());
			if (candidate != null && candidate.isAssignableFrom(type)) {
				return true;
			}
		}
		return false;
	}

	private static @Nullable Class<?> loadIfPresent(String className, @Nullable ClassLoader classLoader) {
		try {
			return ClassUtils.forName(className, classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return null;
		}
	}

}
