"""The apps served by Voila: a page left while it loads takes its kernel with it.

Voila starts a kernel for every request of an app's page, runs the notebook in it
while the page streams to the browser, and only a page that has arrived knows its
kernel (and asks for its shutdown when it is left). A page reloaded or closed
before that, a lecturer's impatient F5, used to leave a kernel nobody would ever
connect to, running the notebook and then idle until Voila's culler ended it
(``cull_idle_timeout`` of ``voila.json``: a minute). :class:`LectureKernelManager`
(``voila.json``: ``VoilaConfiguration.multi_kernel_manager_class``) shuts such a
kernel down as soon as the browser closes the connection of the page request that
started it, before the page was sent whole. A page that is merely slow (a heavy
notebook, a busy machine) keeps its connection open, and its kernel; once a page
has arrived whole, its own shutdown request and the culler look after its kernel.

This module runs in Voila's server, never in a kernel: it imports Jupyter Server,
which Voila brings.
"""
from __future__ import annotations

import asyncio

from jupyter_server import CallContext
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.web import HTTPError

__all__ = ["LectureKernelManager", "PAGE_LEFT"]

#: The status a page request ends with when its browser left before the kernel had
#: started (nginx's "client closed request"; nobody receives it).
PAGE_LEFT = 499


class LectureKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager, but a kernel started for a page request is shut down as
    soon as that request's connection closes before the page was sent whole."""

    async def start_kernel(self, *args, **kwargs) -> str:
        handler = CallContext.get(CallContext.JUPYTER_HANDLER)
        connection = getattr(getattr(handler, "request", None), "connection", None)
        if not hasattr(connection, "set_close_callback"):
            return await super().start_kernel(*args, **kwargs)
        page = {"left": False, "kernel": None}
        request = asyncio.current_task()         # the page request's own task

        def left() -> None:
            # the browser closed the connection before the page was finished: tornado
            # clears this callback once the response is finished, so a page sent whole
            # and left later is not concerned
            page["left"] = True
            handler.on_connection_close()         # what tornado itself would have called
            if page["kernel"] is not None:
                self._shut_down_unseen(page["kernel"])
                # the request stops too (it would wait for the notebook's end, and with
                # the kernel gone before it answered, wait for ever)
                if request is not None:
                    request.cancel()

        connection.set_close_callback(left)
        kernel_id = await super().start_kernel(*args, **kwargs)
        page["kernel"] = kernel_id
        if page["left"]:                         # left while the kernel was starting
            self._shut_down_unseen(kernel_id)
            raise HTTPError(PAGE_LEFT, reason="Client Closed Request")
        return kernel_id

    def _shut_down_unseen(self, kernel_id: str) -> None:
        """Shut ``kernel_id`` down (soon, in the server's loop) unless it is gone already."""
        async def shut_down() -> None:
            if kernel_id not in self:
                return
            self.log.info("Kernel %s: its page was left while loading; shutting it down "
                          "(Voila then reports the notebook's run as broken off: expected)",
                          kernel_id)
            try:
                await self.shutdown_kernel(kernel_id, now=True)
            except KeyError:                      # shut down meanwhile (the page's request)
                pass

        asyncio.ensure_future(shut_down())
