package io.github.lockable.test.app;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * A test application: {@code @SpringBootConfiguration} with Boot's auto-configuration, less
 * Spring Security's. {@code spring-security-config} is on the test class path for the advice
 * order tests only, and would otherwise lock every endpoint of every test application.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootConfiguration
@EnableAutoConfiguration(excludeName = {
		"org.springframework.boot.autoconfigure.security.servlet.SecurityAutoConfiguration",
		"org.springframework.boot.autoconfigure.security.servlet.UserDetailsServiceAutoConfiguration",
		"org.springframework.boot.autoconfigure.security.servlet.SecurityFilterAutoConfiguration" })
public @interface ApplicationWithoutSecurity {

}
