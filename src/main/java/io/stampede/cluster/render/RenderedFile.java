/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

/**
 * One generated file: its place in the output tree (role/host/name), where it is installed on the host, and its
 * full text, header included.
 */
public record RenderedFile(String relativePath, String installPath, String content) {
}
