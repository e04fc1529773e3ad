; floor-tile: robots paint the tiles of a floor, standing below or above the tile they
; paint; a painted tile can no longer be entered.
(define (domain floor-tile)
    (:requirements :typing)
    (:types color robot tile - object)
    (:predicates (available-color ?c - color) (clear ?x - tile) (down ?x - tile ?y - tile) (free-color ?r - robot)
                 (left ?x - tile ?y - tile) (painted ?x - tile ?c - color) (right ?x - tile ?y - tile)
                 (robot-at ?r - robot ?x - tile) (robot-has ?r - robot ?c - color) (up ?x - tile ?y - tile))
    (:action change-color
        :parameters (?r - robot ?c - color ?c2 - color)
        :precondition (and (robot-has ?r ?c) (available-color ?c2))
        :effect (and (not (robot-has ?r ?c)) (robot-has ?r ?c2)))
    ; moves: the robot goes from ?x to the neighbouring clear tile ?y
    (:action up
        :parameters (?r - robot ?x - tile ?y - tile)
        :precondition (and (robot-at ?r ?x) (up ?y ?x) (clear ?y))
        :effect (and (robot-at ?r ?y) (not (robot-at ?r ?x)) (clear ?x) (not (clear ?y))))
    (:action down
        :parameters (?r - robot ?x - tile ?y - tile)
        :precondition (and (robot-at ?r ?x) (down ?y ?x) (clear ?y))
        :effect (and (robot-at ?r ?y) (not (robot-at ?r ?x)) (clear ?x) (not (clear ?y))))
    (:action right
        :parameters (?r - robot ?x - tile ?y - tile)
        :precondition (and (robot-at ?r ?x) (right ?y ?x) (clear ?y))
        :effect (and (robot-at ?r ?y) (not (robot-at ?r ?x)) (clear ?x) (not (clear ?y))))
    (:action left
        :parameters (?r - robot ?x - tile ?y - tile)
        :precondition (and (robot-at ?r ?x) (left ?y ?x) (clear ?y))
        :effect (and (robot-at ?r ?y) (not (robot-at ?r ?x)) (clear ?x) (not (clear ?y))))
    ; painting: only the tile directly above or below the robot
    (:action paint-up
        :parameters (?r - robot ?y - tile ?x - tile ?c - color)
        :precondition (and (robot-has ?r ?c) (robot-at ?r ?x) (up ?y ?x) (clear ?y))
        :effect (and (not (clear ?y)) (painted ?y ?c)))
    (:action paint-down
        :parameters (?r - robot ?y - tile ?x - tile ?c - color)
        :precondition (and (robot-has ?r ?c) (robot-at ?r ?x) (down ?y ?x) (clear ?y))
        :effect (and (not (clear ?y)) (painted ?y ?c)))
)
