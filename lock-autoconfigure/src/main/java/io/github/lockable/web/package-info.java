/**
 * The web adapter: Lockable's exceptions as {@code application/problem+json}.
 */
@NonNullApi
package io.github.lockable.web;

import org.springframework.lang.NonNullApi;
