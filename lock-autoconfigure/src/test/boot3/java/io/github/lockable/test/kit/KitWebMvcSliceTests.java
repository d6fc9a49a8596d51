package io.github.lockable.test.kit;

import io.github.lockable.test.kit.KitApplication.ProjectController;

import org.springframework.boot.autoconfigure.security.servlet.SecurityAutoConfiguration;
import org.springframework.boot.autoconfigure.security.servlet.SecurityFilterAutoConfiguration;
import org.springframework.boot.autoconfigure.security.servlet.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;

/**
 * {@link KitSliceTests} in this Boot line's {@code @WebMvcTest}, less Spring Security's
 * auto-configuration: {@code spring-security-config} is on the test class path for other
 * tests, without the web part the slice's security would need.
 */
@WebMvcTest(controllers = ProjectController.class, excludeAutoConfiguration = { SecurityAutoConfiguration.class,
		SecurityFilterAutoConfiguration.class, UserDetailsServiceAutoConfiguration.class })
class KitWebMvcSliceTests extends KitSliceTests {

}
