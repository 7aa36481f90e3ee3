package dev.capability.egress.internal;

import io.netty.channel.Channel;

/** How a protocol answers its client once the proxy has decided about the requested destination. */
interface Responder {
  /** The destination is connected: answer success and relay. */
  void connected(Channel destination);

  /** The rules or a limit refused the destination: answer with {@code reason} and close. */
  void refused(String reason);

  /**
   * A granted destination could not be reached ({@code EGRESS_UNRESOLVED} or {@code
   * EGRESS_CONNECT_FAILED}): answer so and close. {@code refused} tells a destination that refused
   * the connection from one that could not be reached at all.
   */
  void failed(String reason, boolean refused);
}
