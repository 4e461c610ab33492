/**
 * Grove's pure scheduling core: resource vectors, pool trees and the fair-share update. Nothing in
 * this module performs I/O, starts threads or reads a clock; time and state are passed in.
 */
package io.grove.core;
