/**
 * The web adapter: Lockable's exceptions as {@code application/problem+json}.
 */
@NullMarked
package io.github.lockable.web;

import org.jspecify.annotations.NullMarked;
