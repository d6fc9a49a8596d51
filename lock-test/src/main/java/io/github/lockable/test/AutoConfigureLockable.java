package io.github.lockable.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Adds Lockable to a test slice ({@code @WebMvcTest}, {@code @WebFluxTest}, ...): the
 * advice of {@code @Lockable} methods, {@code LockTemplate}, the web answers to a held lock
 * and the {@link LockableTestKit}, on the memory store unless the test sets
 * {@code lockable.store}. A slice leaves out the application's own beans, so import the
 * {@code LockKeyResolver} beans the tested methods name.
 * <pre class="code">
 * &#64;WebMvcTest(ProjectController.class)
 * &#64;AutoConfigureLockable
 * &#64;Import(ProjectKeyResolver.class)
 * class ProjectControllerTests { ... }
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureLockable {

}
