package io.github.lockable.sample;

import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockContext;
import io.github.lockable.Lockable;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * A per-project mutation: one change per project at a time (named resolver, 409 Conflict);
 * different projects change in parallel.
 */
@RestController
class ProjectController {

	private final ProjectService projects;

	ProjectController(ProjectService projects) {
		this.projects = projects;
	}

	@PostMapping("/projects")
	@ResponseStatus(HttpStatus.CREATED)
	Project create(@Valid @RequestBody NewProject project) {
		return this.projects.create(project.name());
	}

	@PostMapping("/projects/{projectId}/archive")
	@Lockable(resolver = "project", ttl = "10s", conflictPolicy = ConflictPolicy.CONFLICT)
	Project archive(@PathVariable UUID projectId) {
		return this.projects.archive(projectId);
	}

	/**
	 * A change that writes with the lock's fencing token, so that a holder that outlived its
	 * lock cannot overwrite a later holder's change.
	 */
	@PutMapping("/projects/{projectId}/name")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	@Lockable(resolver = "project", ttl = "10s", conflictPolicy = ConflictPolicy.CONFLICT)
	void rename(@PathVariable UUID projectId, @Valid @RequestBody NewProject project) {
		long fencingToken = LockContext.current().orElseThrow().fencingToken();
		this.projects.rename(projectId, project.name(), fencingToken);
	}

	record NewProject(@NotBlank @Size(max = 100) String name) {
	}

}
