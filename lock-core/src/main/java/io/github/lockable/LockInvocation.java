package io.github.lockable;

import java.lang.reflect.Method;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A call of a {@link Lockable} method, as a {@link LockKeyResolver} sees it.
 */
public interface LockInvocation {

	/**
	 * The method being called, as declared on the target class.
	 * @return the method
	 */
	Method method();

	/**
	 * The object the method is called on (the target behind the proxy).
	 * @return the target
	 */
	Object target();

	/**
	 * The call's arguments, in declaration order.
	 * @return an unmodifiable list of the arguments, {@code null} where the caller passed
	 * {@code null}
	 */
	List<@Nullable Object> arguments();

	/**
	 * The argument of the named parameter. Parameter names come from the class file: compile
	 * with {@code -parameters} (Spring Boot's Maven and Gradle plugins do).
	 * @param <T> the expected type
	 * @param parameterName the parameter's name
	 * @param type the expected type
	 * @return the argument, possibly {@code null}
	 * @throws IllegalArgumentException if the method has no such parameter or its argument
	 * is not of the given type
	 */
	<T> @Nullable T argument(String parameterName, Class<T> type);

}
