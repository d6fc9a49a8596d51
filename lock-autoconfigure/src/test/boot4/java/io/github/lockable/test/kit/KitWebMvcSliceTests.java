package io.github.lockable.test.kit;

import io.github.lockable.test.kit.KitApplication.ProjectController;

import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;

/**
 * {@link KitSliceTests} in this Boot line's {@code @WebMvcTest}; Spring Security's filters,
 * on the test class path for other tests, stay out.
 */
@WebMvcTest(ProjectController.class)
@AutoConfigureMockMvc(addFilters = false)
class KitWebMvcSliceTests extends KitSliceTests {

}
